package cgs_test

// The SDK held to the OpenAPI document: every schema's members are the json tags of its Go type
// and the reverse, with matching types; every enum is the SDK's constants; every operator
// operation has a method that sends what the document declares and reads its documented example.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cgs "github.com/casino-gaming/cgs-go/v2"
	"github.com/casino-gaming/cgs-go/v2/seamless"
)

type role int

const (
	// read: the SDK decodes it. An optional member must be omitempty or nillable.
	read role = iota
	// sent: the SDK encodes it. A required member is never omitempty, an optional one always is.
	sent
)

type schemaType struct {
	typ  reflect.Type
	role role
}

func typeOf[T any]() reflect.Type { return reflect.TypeOf((*T)(nil)).Elem() }

// schemaTypes maps each component schema to the Go type written for it.
var schemaTypes = map[string]schemaType{
	"SessionRequest":               {typeOf[cgs.SessionCreateParams](), sent},
	"GameSession":                  {typeOf[cgs.Session](), read},
	"FieldError":                   {typeOf[cgs.FieldError](), read},
	"Problem":                      {typeOf[cgs.Error](), read},
	"Jwk":                          {typeOf[cgs.JWK](), read},
	"Jwks":                         {typeOf[cgs.JWKS](), read},
	"Game":                         {typeOf[cgs.Game](), read},
	"Provider":                     {typeOf[cgs.Provider](), read},
	"Currency":                     {typeOf[cgs.Currency](), read},
	"GameList":                     {typeOf[cgs.Page[cgs.Game]](), read},
	"ProviderList":                 {typeOf[cgs.Page[cgs.Provider]](), read},
	"CurrencyList":                 {typeOf[cgs.Page[cgs.Currency]](), read},
	"Wallet":                       {typeOf[cgs.Wallet](), read},
	"Transaction":                  {typeOf[cgs.Transaction](), read},
	"WalletList":                   {typeOf[cgs.Page[cgs.Wallet]](), read},
	"TransactionList":              {typeOf[cgs.Page[cgs.Transaction]](), read},
	"SessionList":                  {typeOf[cgs.Page[cgs.Session]](), read},
	"Round":                        {typeOf[cgs.Round](), read},
	"RoundTransaction":             {typeOf[cgs.RoundTransaction](), read},
	"RoundDetail":                  {typeOf[cgs.RoundDetail](), read},
	"RoundList":                    {typeOf[cgs.Page[cgs.Round]](), read},
	"WalletSettings":               {typeOf[cgs.WalletSettings](), read},
	"WalletSettingsRequest":        {typeOf[cgs.WalletSettingsParams](), sent},
	"WalletSettingsUpdated":        {typeOf[cgs.WalletSettingsUpdated](), read},
	"WebhookEndpoint":              {typeOf[cgs.WebhookEndpoint](), read},
	"WebhookEndpointCreated":       {typeOf[cgs.WebhookEndpointCreated](), read},
	"WebhookEndpointRequest":       {typeOf[cgs.WebhookEndpointCreateParams](), sent},
	"WebhookEndpointList":          {typeOf[cgs.Page[cgs.WebhookEndpoint]](), read},
	"WebhookEndpointUpdate":        {typeOf[cgs.WebhookEndpointUpdateParams](), sent},
	"Event":                        {typeOf[cgs.Event](), read},
	"EventList":                    {typeOf[cgs.Page[cgs.Event]](), read},
	"WebhookAttempt":               {typeOf[cgs.WebhookAttempt](), read},
	"WebhookDelivery":              {typeOf[cgs.WebhookDelivery](), read},
	"WebhookDeliveryList":          {typeOf[cgs.WebhookDeliveryList](), read},
	"Jurisdiction":                 {typeOf[cgs.Jurisdiction](), read},
	"JurisdictionRules":            {typeOf[cgs.JurisdictionRules](), read},
	"JurisdictionList":             {typeOf[cgs.Page[cgs.Jurisdiction]](), read},
	"PlayerRestrictionsInput":      {typeOf[cgs.PlayerRestrictionsParams](), sent},
	"PlayerRestrictions":           {typeOf[cgs.PlayerRestrictions](), read},
	"SandboxPlayerRequest":         {typeOf[cgs.SandboxPlayerParams](), sent},
	"SandboxPlayer":                {typeOf[cgs.SandboxPlayer](), read},
	"SandboxPlayerBalances":        {typeOf[cgs.SandboxPlayerBalances](), read},
	"WalletCheckRequest":           {typeOf[cgs.WalletCheckParams](), sent},
	"WalletCheckReport":            {typeOf[cgs.WalletCheckReport](), read},
	"SandboxReset":                 {typeOf[cgs.SandboxReset](), read},
	"SandboxFixtureOutcomeRequest": {typeOf[cgs.SandboxFixtureParams](), sent},
	"SandboxFixtureSettled":        {typeOf[cgs.SandboxFixtureSettled](), read},
	"FreeRoundCampaignRequest":     {typeOf[cgs.FreeRoundCampaignCreateParams](), sent},
	"FreeRoundCampaign":            {typeOf[cgs.FreeRoundCampaign](), read},
	"FreeRoundCampaignList":        {typeOf[cgs.Page[cgs.FreeRoundCampaign]](), read},
	"FreeRoundPlayersRequest":      {typeOf[cgs.FreeRoundPlayersParams](), sent},
	"FreeRoundPlayersAdded":        {typeOf[cgs.FreeRoundPlayersAdded](), read},
	"FreeRoundGrant":               {typeOf[cgs.FreeRoundGrant](), read},
	"FreeRoundGrantList":           {typeOf[cgs.Page[cgs.FreeRoundGrant]](), read},
	"GgrCell":                      {typeOf[cgs.GgrCell](), read},
	"GgrReport":                    {typeOf[cgs.GgrReport](), read},
	"GgrSportsbook":                {typeOf[cgs.GgrSportsbook](), read},
	"WalletCallState":              {typeOf[cgs.WalletCallState](), read},
	"ReconciliationLine":           {typeOf[cgs.ReconciliationLine](), read},
	"ReconciliationTotal":          {typeOf[cgs.ReconciliationTotal](), read},
	"ReconciliationPage":           {typeOf[cgs.ReconciliationPage](), read},
	"StatementLine":                {typeOf[cgs.StatementLine](), read},
	"Statement":                    {typeOf[cgs.Statement](), read},
	"SportsbookBet":                {typeOf[cgs.SportsbookBet](), read},
	"SportsbookSettlement":         {typeOf[cgs.SportsbookSettlement](), read},
	"SportsbookBetList":            {typeOf[cgs.Page[cgs.SportsbookBet]](), read},
}

// withoutType are the schemas no struct stands for, and why.
var withoutType = map[string]string{
	"ProblemCode":                    "the ErrorCode constants (TestEnumsAreConstants)",
	"EventType":                      "the EventType constants (TestEnumsAreConstants)",
	"Ed25519Jwk":                     "a variant of Jwk, checked with it",
	"P256Jwk":                        "a variant of Jwk, checked with it",
	"DateTime":                       "time.Time",
	"Amount":                         "Decimal",
	"PositiveAmount":                 "Decimal",
	"OperatorId":                     "string: the API holds it to its rule (docs/validation.md)",
	"CurrencyCode":                   "string",
	"CountryCode":                    "string",
	"CallbackUrl":                    "string",
	"GameId":                         "string",
	"SignedAmount":                   "Decimal",
	"Day":                            "string (`2026-11-24`)",
	"ProviderTransactionId":          "the provider API, which game providers call",
	"ProviderRoundId":                "the provider API",
	"SessionToken":                   "the provider API",
	"ProviderBetRequest":             "the provider API",
	"ProviderWinRequest":             "the provider API",
	"ProviderRollbackRequest":        "the provider API",
	"ProviderAnswer":                 "the provider API",
	"ProviderBalance":                "the provider API",
	"ProviderFreeRounds":             "the provider API",
	"ProviderFreeRoundPayoutRequest": "the provider API",
	"SportsbookBetId":                "the provider API",
	"Odds":                           "string: decimal odds as the provider sent them",
	"SportsbookBetStatus":            "the SportsbookBet* constants (TestEnumsAreConstants)",
	"SportsbookResult":               "the Sportsbook* result constants (TestEnumsAreConstants)",
	"SportsbookPlaceRequest":         "the provider API",
	"SportsbookCallRequest":          "the provider API",
	"SportsbookSettlementRequest":    "the provider API",
	"SportsbookUnsettleRequest":      "the provider API",
	"SportsbookAnswer":               "the provider API",
	"SandboxFixtureId":               "string",
}

var (
	decimalType = typeOf[cgs.Decimal]()
	timeType    = typeOf[time.Time]()
	rawType     = typeOf[json.RawMessage]()
)

// field is a json member of a struct, embedded structs flattened.
type field struct {
	name      string
	typ       reflect.Type
	omitempty bool
}

func jsonFields(t reflect.Type) map[string]field {
	fields := map[string]field{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
			for name, inner := range jsonFields(f.Type) {
				if _, shadowed := fields[name]; !shadowed {
					fields[name] = inner
				}
			}
			continue
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, options, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		fields[name] = field{name: name, typ: f.Type, omitempty: strings.Contains(options, "omitempty")}
	}
	return fields
}

type typeChecker struct {
	t   *testing.T
	doc object
}

func (c *typeChecker) errorf(where, format string, args ...interface{}) {
	c.t.Helper()
	c.t.Errorf(where+": "+format, args...)
}

// isMoney: a $ref to Amount or PositiveAmount, or a string pattern with up to four decimals.
func isMoney(schema object, name string) bool {
	if name == "Amount" || name == "PositiveAmount" {
		return true
	}
	p, _ := schema["pattern"].(string)
	return strings.Contains(p, `\.[0-9]{4}`) || strings.Contains(p, `\.[0-9]{1,4}`)
}

// check holds one Go type to one schema.
func (c *typeChecker) check(where string, schema object, t reflect.Type, r role) {
	c.t.Helper()
	base, name, nullable := nonNull(c.doc, schema)
	if base == nil {
		c.errorf(where, "unresolvable schema")
		return
	}
	if nullable {
		switch t.Kind() {
		case reflect.Pointer:
			t = t.Elem()
		case reflect.Slice, reflect.Map, reflect.Interface:
		default:
			c.errorf(where, "may be null, but %s cannot be nil", t)
			return
		}
	}
	// A oneOf beside properties only constrains them (FieldError's pointer or parameter).
	if variants, ok := base["oneOf"].([]interface{}); ok && base["properties"] == nil {
		c.checkUnion(where, variants, t, r)
		return
	}
	if all, ok := base["allOf"].([]interface{}); ok && len(all) == 1 {
		c.check(where, all[0].(object), t, r)
		return
	}
	kinds := types(base)
	kind := ""
	if len(kinds) == 1 {
		kind = kinds[0]
	}
	switch kind {
	case "string":
		money := isMoney(base, name)
		switch {
		case money && t != decimalType:
			c.errorf(where, "is money, so cgs.Decimal, not %s", t)
		case !money && t == decimalType:
			c.errorf(where, "is not money, yet cgs.Decimal")
		case base["format"] == "date-time" || name == "DateTime":
			if t != timeType {
				c.errorf(where, "is a date-time, so time.Time, not %s", t)
			}
		case t.Kind() != reflect.String:
			c.errorf(where, "is a string, not %s", t)
		}
	case "integer":
		if k := t.Kind(); k != reflect.Int && k != reflect.Int64 {
			c.errorf(where, "is an integer, not %s", t)
		}
	case "boolean":
		if t.Kind() != reflect.Bool {
			c.errorf(where, "is a boolean, not %s", t)
		}
	case "array":
		if t.Kind() != reflect.Slice {
			c.errorf(where, "is an array, not %s", t)
			return
		}
		if items, ok := base["items"].(object); ok {
			c.check(where+"[]", items, t.Elem(), r)
		}
	case "object":
		c.checkObject(where, base, t, r)
	default:
		c.errorf(where, "has no single type (%v) this checker knows", base["type"])
	}
}

func (c *typeChecker) checkObject(where string, schema object, t reflect.Type, r role) {
	c.t.Helper()
	properties, hasProperties := schema["properties"].(object)
	if !hasProperties {
		if extra, ok := schema["additionalProperties"].(object); ok {
			if t.Kind() != reflect.Map || t.Key().Kind() != reflect.String {
				c.errorf(where, "is a map of strings, not %s", t)
				return
			}
			c.check(where+"{}", extra, t.Elem(), r)
			return
		}
		if t != rawType && t.Kind() != reflect.Map && t.Kind() != reflect.Interface {
			c.errorf(where, "is any object, so json.RawMessage or a map, not %s", t)
		}
		return
	}
	if t.Kind() != reflect.Struct {
		c.errorf(where, "is an object, not %s", t)
		return
	}
	fields := jsonFields(t)
	required := stringsOf(schema["required"])
	for _, name := range sortedKeys(properties) {
		f, ok := fields[name]
		if !ok {
			c.errorf(where, "member %q has no field in %s", name, t)
			continue
		}
		property := properties[name].(object)
		_, _, nullable := nonNull(c.doc, property)
		isRequired := contains(required, name)
		nillable := f.typ.Kind() == reflect.Pointer || f.typ.Kind() == reflect.Slice || f.typ.Kind() == reflect.Map
		switch {
		case r == sent && isRequired && f.omitempty:
			c.errorf(where, "member %q is required, so %s must not be omitempty", name, t)
		case r == sent && !isRequired && !f.omitempty:
			c.errorf(where, "member %q is optional, so %s must omit it when unset (omitempty)", name, t)
		case r == read && !isRequired && !f.omitempty && !nillable:
			c.errorf(where, "member %q may be absent, so %s needs omitempty or a nillable type", name, t)
		case r == read && isRequired && !nullable && f.typ.Kind() == reflect.Pointer:
			c.errorf(where, "member %q is always there and never null, so %s needs no pointer", name, t)
		}
		// An optional member may be a pointer, nil when absent.
		typ := f.typ
		if !isRequired && !nullable && typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		c.check(where+"."+name, property, typ, r)
	}
	for name := range fields {
		if _, ok := properties[name]; !ok {
			c.errorf(where, "%s has the field %q, which the schema lacks", t, name)
		}
	}
}

// checkUnion: a oneOf of objects (the two kinds of JWK) read into one struct: every variant's
// members are fields, and every field is some variant's member.
func (c *typeChecker) checkUnion(where string, variants []interface{}, t reflect.Type, r role) {
	c.t.Helper()
	fields := jsonFields(t)
	seen := map[string]bool{}
	for i, v := range variants {
		variant, name := resolve(c.doc, v.(object))
		properties, _ := variant["properties"].(object)
		for _, member := range sortedKeys(properties) {
			seen[member] = true
			f, ok := fields[member]
			if !ok {
				c.errorf(where, "member %q of %s (variant %d) has no field in %s", member, name, i, t)
				continue
			}
			c.check(where+"."+member, properties[member].(object), f.typ, r)
		}
	}
	for name := range fields {
		if !seen[name] {
			c.errorf(where, "%s has the field %q, which no variant has", t, name)
		}
	}
}

func TestEverySchemaHasItsType(t *testing.T) {
	doc := loadDocument(t)
	schemas := at(doc, "components", "schemas")
	c := &typeChecker{t: t, doc: doc}
	for _, name := range sortedKeys(schemas) {
		st, typed := schemaTypes[name]
		_, untyped := withoutType[name]
		switch {
		case typed && untyped:
			t.Errorf("%s is listed both with and without a type", name)
		case !typed && !untyped:
			t.Errorf("schema %s has no Go type: add one (or say why not in withoutType)", name)
		case typed:
			c.check(name, schemas[name].(object), st.typ, st.role)
		}
	}
	for name := range schemaTypes {
		if schemas[name] == nil {
			t.Errorf("%s is no longer a schema of the document", name)
		}
	}
}

func TestWebhookSchemasHaveTheirTypes(t *testing.T) {
	doc := loadDocument(t)
	c := &typeChecker{t: t, doc: doc}
	event := at(doc, "webhooks", "event", "post", "requestBody", "content", "application/json", "schema")
	c.check("webhooks.event", event, typeOf[cgs.Event](), read)

	call := at(doc, "webhooks", "walletCall", "post")
	c.check("webhooks.walletCall", at(call, "requestBody", "content", "application/json", "schema"), typeOf[seamless.Call](), read)
	// The two answers, accepted and refused, are one Reply.
	var answers []interface{}
	for _, status := range []string{"200", "422"} {
		answers = append(answers, at(call, "responses", status, "content", "application/json", "schema"))
	}
	c.checkUnion("webhooks.walletCall answers", answers, typeOf[seamless.Reply](), sent)

	// The documented examples are what Verify parses and Reply writes.
	example := at(call, "requestBody", "content", "application/json", "examples", "debit", "value")
	data, _ := json.Marshal(example)
	decoder := json.NewDecoder(strings.NewReader(string(data)))
	decoder.DisallowUnknownFields()
	var parsed seamless.Call
	if err := decoder.Decode(&parsed); err != nil {
		t.Errorf("the walletCall example does not decode strictly into seamless.Call: %v", err)
	}
	for status, reply := range map[string]seamless.Reply{
		"200": seamless.Accept("989.5"), "422": seamless.Refuse(seamless.CodeInsufficientFunds, "3.25"),
	} {
		body, err := reply.Body()
		if err != nil {
			t.Fatal(err)
		}
		var value interface{}
		_ = json.Unmarshal(body, &value)
		schema := at(call, "responses", status, "content", "application/json", "schema")
		for _, problem := range validate(doc, schema, value, "walletCall "+status) {
			t.Error(problem)
		}
	}
}

func enumOf(doc object, names ...string) []string {
	schema, _ := resolve(doc, at(doc, names...))
	values := stringsOf(schema["enum"])
	sort.Strings(values)
	return values
}

func sortedStrings[T ~string](values ...T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	sort.Strings(out)
	return out
}

func TestEnumsAreConstants(t *testing.T) {
	doc := loadDocument(t)
	s := []string{"components", "schemas"}
	cases := []struct {
		schema []string
		consts []string
	}{
		{append(s, "ProblemCode"), sortedStrings(cgs.ErrorCodes...)},
		{append(s, "EventType"), sortedStrings(cgs.EventTypes...)},
		{append(s, "GameSession", "properties", "status"), sortedStrings(cgs.SessionCreated, cgs.SessionActive, cgs.SessionClosed, cgs.SessionExpired)},
		{append(s, "SessionRequest", "properties", "kyc_status"), sortedStrings(cgs.KYCUnverified, cgs.KYCPending, cgs.KYCVerified, cgs.KYCRejected)},
		{append(s, "Game", "properties", "category"), sortedStrings(cgs.CategorySlots, cgs.CategoryLiveCasino, cgs.CategoryTableGames,
			cgs.CategoryGameShow, cgs.CategoryCrash, cgs.CategoryInstant, cgs.CategoryScratch, cgs.CategoryBingo, cgs.CategoryJackpot, cgs.CategorySportsbook)},
		{append(s, "SportsbookBetStatus"), sortedStrings(cgs.SportsbookBetReserved, cgs.SportsbookBetOpen, cgs.SportsbookBetSettled,
			cgs.SportsbookBetClosed, cgs.SportsbookBetDiscarded)},
		{append(s, "SportsbookResult"), sortedStrings(cgs.SportsbookWon, cgs.SportsbookLost, cgs.SportsbookVoid, cgs.SportsbookCashout,
			cgs.SportsbookHalfWon, cgs.SportsbookHalfLost)},
		{append(s, "Transaction", "properties", "type"), sortedStrings(cgs.TransactionDeposit, cgs.TransactionWithdraw,
			cgs.TransactionAdjustment, cgs.TransactionBet, cgs.TransactionWin, cgs.TransactionFee)},
		{append(s, "Round", "properties", "status"), sortedStrings(cgs.RoundOpen, cgs.RoundClosed, cgs.RoundCancelled)},
		{append(s, "WalletSettings", "properties", "mode"), sortedStrings(cgs.WalletTransfer, cgs.WalletSeamless)},
		{append(s, "FreeRoundCampaign", "properties", "status"), sortedStrings(cgs.FreeRoundCampaignScheduled, cgs.FreeRoundCampaignActive,
			cgs.FreeRoundCampaignEnded, cgs.FreeRoundCampaignCancelled)},
		{append(s, "FreeRoundGrant", "properties", "status"), sortedStrings(cgs.FreeRoundGrantPending, cgs.FreeRoundGrantInProgress,
			cgs.FreeRoundGrantCompleted, cgs.FreeRoundGrantExpired, cgs.FreeRoundGrantCancelled)},
		{append(s, "SandboxPlayer", "properties", "behaviour"), sortedStrings(cgs.BehaviourNormal, cgs.BehaviourInsufficientFunds, cgs.BehaviourFailingWallet, cgs.BehaviourSlowWallet)},
		{[]string{"webhooks", "walletCall", "post", "requestBody", "content", "application/json", "schema", "properties", "action"},
			sortedStrings(seamless.ActionBalance, seamless.ActionDebit, seamless.ActionCredit, seamless.ActionRollback)},
	}
	for _, tc := range cases {
		documented := enumOf(doc, tc.schema...)
		if len(documented) == 0 {
			t.Errorf("%s has no enum", strings.Join(tc.schema, "."))
			continue
		}
		if !reflect.DeepEqual(documented, tc.consts) {
			t.Errorf("%s: the document lists %v, the SDK %v", strings.Join(tc.schema, "."), documented, tc.consts)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// calls exercises each operator operation through the SDK with every parameter set, so that the
// fake API below sees each member the SDK can send.
var calls = map[string]func(ctx context.Context, c *cgs.Client) error{
	"createSession": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Sessions.Create(ctx, &cgs.SessionCreateParams{PlayerID: "player-1", GameID: "pragmatic-play:vs20olympgate",
			Currency: "EUR", Country: "MT", Jurisdiction: "MT", KYCStatus: cgs.KYCVerified, RealityCheckMinutes: 60})
		return err
	},
	"getSession": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Sessions.Get(ctx, "0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90")
		return err
	},
	"listSessions": func(ctx context.Context, c *cgs.Client) error {
		return drain(ctx, c.Sessions.List(&cgs.SessionListParams{ListParams: cgs.ListParams{Limit: 10}, PlayerID: "player-1", Status: cgs.SessionCreated}))
	},
	"closeSession": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Sessions.Close(ctx, "0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90")
		return err
	},
	"listGames": func(ctx context.Context, c *cgs.Client) error {
		since := time.Date(2026, 11, 1, 0, 0, 0, 123456789, time.UTC)
		return drain(ctx, c.Games.List(&cgs.GameListParams{ListParams: cgs.ListParams{Limit: 5}, Provider: "pragmatic-play",
			Category: cgs.CategorySlots, Currency: "EUR", Country: "MT", Jurisdiction: "MT", UpdatedSince: &since}))
	},
	"getGame": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Games.Get(ctx, "pragmatic-play:vs20olympgate")
		return err
	},
	"listProviders": func(ctx context.Context, c *cgs.Client) error {
		return drain(ctx, c.Providers.List(&cgs.ListParams{Limit: 3}))
	},
	"listCurrencies": func(ctx context.Context, c *cgs.Client) error {
		return drain(ctx, c.Currencies.List(&cgs.ListParams{Limit: 50}))
	},
	"listJurisdictions": func(ctx context.Context, c *cgs.Client) error {
		return drain(ctx, c.Jurisdictions.List(&cgs.ListParams{Limit: 100}))
	},
	"getJurisdiction": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Jurisdictions.Get(ctx, "GB")
		return err
	},
	"listWallets": func(ctx context.Context, c *cgs.Client) error {
		return drain(ctx, c.Wallets.List(&cgs.ListParams{Limit: 1}))
	},
	"listTransactions": func(ctx context.Context, c *cgs.Client) error {
		after, before := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Now()
		return drain(ctx, c.Transactions.List(&cgs.TransactionListParams{ListParams: cgs.ListParams{Limit: 100}, Currency: "EUR",
			Type: cgs.TransactionBet, CreatedAfter: &after, CreatedBefore: &before}))
	},
	"listRounds": func(ctx context.Context, c *cgs.Client) error {
		before := time.Now()
		return drain(ctx, c.Rounds.List(&cgs.RoundListParams{ListParams: cgs.ListParams{Limit: 20}, Status: cgs.RoundOpen,
			PlayerID: "player-1", SessionID: "0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90", OpenedBefore: &before}))
	},
	"listSportsbookBets": func(ctx context.Context, c *cgs.Client) error {
		after := time.Now().Add(-time.Hour)
		return drain(ctx, c.Sportsbook.ListBets(&cgs.SportsbookBetListParams{ListParams: cgs.ListParams{Limit: 20},
			Status: cgs.SportsbookBetSettled, PlayerID: "player-1", SettledAfter: &after}))
	},
	"getSportsbookBet": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Sportsbook.GetBet(ctx, "7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4a5b")
		return err
	},
	"getRound": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Rounds.Get(ctx, "5d0c7f3e-2a41-4c8e-9b7a-1f2e3d4c5b6a")
		return err
	},
	"getWalletSettings": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.WalletSettings.Get(ctx)
		return err
	},
	"putWalletSettings": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.WalletSettings.Update(ctx, &cgs.WalletSettingsParams{Mode: cgs.WalletSeamless, URL: "https://wallet.example/cgs",
			RotateSecret: true, LowBalanceAlerts: map[string]cgs.Decimal{"EUR": "100.0000"}})
		return err
	},
	"createWebhookEndpoint": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.WebhookEndpoints.Create(ctx, &cgs.WebhookEndpointCreateParams{URL: "https://hooks.example/cgs",
			EventTypes: []cgs.EventType{cgs.EventRoundClosed}, Description: "hooks"})
		return err
	},
	"listWebhookEndpoints": func(ctx context.Context, c *cgs.Client) error {
		return drain(ctx, c.WebhookEndpoints.List(&cgs.ListParams{Limit: 7}))
	},
	"getWebhookEndpoint": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.WebhookEndpoints.Get(ctx, "7a1e0c9d-1f2b-4c3d-8e4f-5a6b7c8d9e0f")
		return err
	},
	"updateWebhookEndpoint": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.WebhookEndpoints.Update(ctx, "7a1e0c9d-1f2b-4c3d-8e4f-5a6b7c8d9e0f", &cgs.WebhookEndpointUpdateParams{
			URL: ptr("https://hooks.example/v2"), EventTypes: []cgs.EventType{}, Enabled: ptr(false), Description: ptr("")})
		return err
	},
	"deleteWebhookEndpoint": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.WebhookEndpoints.Delete(ctx, "7a1e0c9d-1f2b-4c3d-8e4f-5a6b7c8d9e0f")
		return err
	},
	"rotateWebhookSecret": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.WebhookEndpoints.RotateSecret(ctx, "7a1e0c9d-1f2b-4c3d-8e4f-5a6b7c8d9e0f")
		return err
	},
	"testWebhookEndpoint": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.WebhookEndpoints.Test(ctx, "7a1e0c9d-1f2b-4c3d-8e4f-5a6b7c8d9e0f")
		return err
	},
	"listEvents": func(ctx context.Context, c *cgs.Client) error {
		return drain(ctx, c.Events.List(&cgs.EventListParams{ListParams: cgs.ListParams{Limit: 2}, Type: cgs.EventRoundClosed}))
	},
	"getEvent": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Events.Get(ctx, "3c2b1a0f-9e8d-4c7b-8a69-5f4e3d2c1b0a")
		return err
	},
	"listEventDeliveries": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Events.Deliveries(ctx, "3c2b1a0f-9e8d-4c7b-8a69-5f4e3d2c1b0a")
		return err
	},
	"redeliverEvent": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Events.Redeliver(ctx, "3c2b1a0f-9e8d-4c7b-8a69-5f4e3d2c1b0a")
		return err
	},
	"getPlayerRestrictions": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Players.GetRestrictions(ctx, "player 1/é")
		return err
	},
	"putPlayerRestrictions": func(ctx context.Context, c *cgs.Client) error {
		until := time.Date(2026, 12, 1, 10, 0, 0, 987654321, time.FixedZone("", 3600))
		_, err := c.Players.SetRestrictions(ctx, "player-1", &cgs.PlayerRestrictionsParams{
			SelfExcludedUntil: &until, SelfExcludedIndefinitely: true, CoolOffUntil: &until,
			LossLimits:              map[string]cgs.LossLimits{"EUR": {Day: ptr(cgs.Decimal("50")), Month: ptr(cgs.Decimal("500.0000"))}},
			StakeLimits:             map[string]cgs.Decimal{"EUR": "2.5"},
			SessionTimeLimitMinutes: ptr(120),
		})
		return err
	},
	"createSandboxPlayer": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Sandbox.CreatePlayer(ctx, &cgs.SandboxPlayerParams{PlayerID: "player-1", Currency: "EUR", Balance: "1000",
			Behaviour: cgs.BehaviourInsufficientFunds})
		return err
	},
	"getSandboxPlayer": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Sandbox.GetPlayer(ctx, "player 1/é")
		return err
	},
	"checkSandboxWallet": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Sandbox.CheckWallet(ctx, &cgs.WalletCheckParams{PlayerID: "player-1", Currency: "EUR"})
		return err
	},
	"resetSandbox": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Sandbox.Reset(ctx)
		return err
	},
	"settleSandboxFixture": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Sandbox.SettleFixture(ctx, "northport-eastbay", &cgs.SandboxFixtureParams{Outcome: cgs.FixtureHome})
		return err
	},
	"resettleSandboxFixture": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Sandbox.ResettleFixture(ctx, "northport-eastbay", &cgs.SandboxFixtureParams{Outcome: cgs.FixtureAway})
		return err
	},
	"voidSandboxFixture": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Sandbox.VoidFixture(ctx, "northport-eastbay")
		return err
	},
	"createFreeRoundCampaign": func(ctx context.Context, c *cgs.Client) error {
		from := time.Date(2026, 12, 1, 0, 0, 0, 123456789, time.UTC)
		_, err := c.FreeRounds.CreateCampaign(ctx, &cgs.FreeRoundCampaignCreateParams{ExternalID: "welcome-1", Name: "Welcome spins",
			GameIDs: []string{"cgs-sandbox:lucky-sevens"}, Currency: "EUR", BetAmount: "0.20", Rounds: 20, ValidFrom: &from,
			ValidUntil: from.Add(14 * 24 * time.Hour), MaxWin: "100", PlayerIDs: []string{"player-1"}})
		return err
	},
	"listFreeRoundCampaigns": func(ctx context.Context, c *cgs.Client) error {
		return drain(ctx, c.FreeRounds.ListCampaigns(&cgs.FreeRoundCampaignListParams{ListParams: cgs.ListParams{Limit: 5},
			Status: cgs.FreeRoundCampaignActive}))
	},
	"getFreeRoundCampaign": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.FreeRounds.GetCampaign(ctx, "4f3e2d1c-0b9a-4877-8665-544332211000")
		return err
	},
	"cancelFreeRoundCampaign": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.FreeRounds.CancelCampaign(ctx, "4f3e2d1c-0b9a-4877-8665-544332211000")
		return err
	},
	"addFreeRoundPlayers": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.FreeRounds.AddPlayers(ctx, "4f3e2d1c-0b9a-4877-8665-544332211000", &cgs.FreeRoundPlayersParams{PlayerIDs: []string{"player-2"}})
		return err
	},
	"cancelFreeRoundGrant": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.FreeRounds.RemovePlayer(ctx, "4f3e2d1c-0b9a-4877-8665-544332211000", "player-1")
		return err
	},
	"listFreeRoundGrants": func(ctx context.Context, c *cgs.Client) error {
		return drain(ctx, c.FreeRounds.ListGrants(&cgs.FreeRoundGrantListParams{ListParams: cgs.ListParams{Limit: 5}, PlayerID: "player-1",
			CampaignID: "4f3e2d1c-0b9a-4877-8665-544332211000", Status: cgs.FreeRoundGrantInProgress}))
	},
	"getGgrReport": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Reports.GGR(ctx, &cgs.GgrReportParams{From: "2026-11-01", To: "2026-11-30",
			GroupBy: []cgs.GgrDimension{cgs.GgrByDay, cgs.GgrByProvider}, Currency: "EUR", Provider: "pragmatic-play",
			GameID: "pragmatic-play:vs20olympgate"})
		return err
	},
	"listReconciliationTransactions": func(ctx context.Context, c *cgs.Client) error {
		from := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
		to := from.Add(24 * time.Hour)
		if _, err := c.Reports.ReconciliationPage(ctx, &cgs.ReconciliationParams{ListParams: cgs.ListParams{Limit: 5}, From: &from, To: &to}); err != nil {
			return err
		}
		if err := drain(ctx, c.Reports.Reconciliation(&cgs.ReconciliationParams{Date: "2026-11-24"})); err != nil {
			return err
		}
		// The CSV: the range only (no page size or cursor), its bytes as they came.
		csv, err := c.Reports.ReconciliationCSV(ctx, &cgs.ReconciliationParams{ListParams: cgs.ListParams{Limit: 5}, Date: "2026-11-24"})
		if err == nil && !strings.HasPrefix(string(csv), "created_at,id,provider,") {
			err = fmt.Errorf("ReconciliationCSV: %q", csv)
		}
		return err
	},
	"getStatement": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Reports.Statement(ctx, "2026-10")
		return err
	},
	"getFreeRoundGrant": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.FreeRounds.GetGrant(ctx, "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d")
		return err
	},
	"getJwks": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Discovery.JWKS(ctx)
		return err
	},
	"getOpenApiDescription": func(ctx context.Context, c *cgs.Client) error {
		_, err := c.Discovery.OpenAPI(ctx)
		return err
	},
}

func drain[T any](ctx context.Context, it *cgs.Iter[T]) error {
	for it.Next(ctx) {
	}
	return it.Err()
}

// fakeAPI answers as the document says: each request is matched to its operation, checked against
// its declared parameters and body schema, and answered with the operation's documented example.
// A list's second page (a request with a cursor) is its example as the last page.
type fakeAPI struct {
	t   *testing.T
	doc object
	ops []operation

	mu   sync.Mutex
	seen []string
	// sent are the query parameters and body members each operation was sent.
	sent map[string]map[string]bool
}

func (f *fakeAPI) record(op, name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sent[op] == nil {
		f.sent[op] = map[string]bool{}
	}
	f.sent[op][name] = true
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.EscapedPath(), "/functions/v1")
	var op *operation
	for i := range f.ops {
		if f.ops[i].method == r.Method && f.ops[i].pathPattern().MatchString(path) {
			op = &f.ops[i]
			break
		}
	}
	if op == nil {
		f.t.Errorf("%s %s is no operation of the document", r.Method, path)
		http.Error(w, "{}", http.StatusNotFound)
		return
	}
	f.mu.Lock()
	f.seen = append(f.seen, op.id)
	f.mu.Unlock()
	f.checkRequest(op, r)

	status, _, example := op.success(f.doc)
	// An operation that also answers text/csv answers its CSV example to a request for CSV.
	if r.Header.Get("Accept") == "text/csv" {
		csv, ok := at(op.op, "responses", strconv.Itoa(status), "content", "text/csv")["example"].(string)
		if !ok {
			f.t.Errorf("%s: asks for text/csv, which the operation does not answer", op.id)
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(csv))
		return
	}
	if page, ok := example.(object); ok && r.URL.Query().Get("cursor") != "" {
		last := object{}
		for k, v := range page {
			last[k] = v
		}
		last["next_cursor"], last["has_more"] = nil, false
		example = last
	}
	if example == nil {
		example = object{}
	}
	body, _ := json.Marshal(example)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func (f *fakeAPI) checkRequest(op *operation, r *http.Request) {
	where := op.id
	if got := r.Header.Get("User-Agent"); got != "cgs-go/"+cgs.Version {
		f.t.Errorf("%s: User-Agent %q", where, got)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer cgs_test_key" {
		f.t.Errorf("%s: Authorization %q", where, got)
	}
	for name, values := range r.URL.Query() {
		f.record(op.id, "?"+name)
		parameter, ok := op.parameters(f.doc, "query")[name]
		if !ok {
			f.t.Errorf("%s: sends the undeclared query parameter %q", where, name)
			continue
		}
		schema, _ := parameter["schema"].(object)
		value := interface{}(values[0])
		if types(resolveSchema(f.doc, schema))[0] == "integer" {
			var n float64
			_ = json.Unmarshal([]byte(values[0]), &n)
			value = n
		}
		for _, problem := range validate(f.doc, schema, value, where+" ?"+name) {
			f.t.Error(problem)
		}
	}
	for name, parameter := range op.parameters(f.doc, "path") {
		segments, template := strings.Split(r.URL.EscapedPath(), "/"), strings.Split(op.path, "/")
		offset := len(segments) - len(template)
		for i, s := range template {
			if s == "{"+name+"}" {
				value, _ := url.PathUnescape(segments[i+offset])
				for _, problem := range validate(f.doc, parameter["schema"].(object), value, where+" {"+name+"}") {
					f.t.Error(problem)
				}
			}
		}
	}
	_, declared := op.parameters(f.doc, "header")["Idempotency-Key"]
	if key := r.Header.Get("Idempotency-Key"); key != "" && !declared {
		f.t.Errorf("%s: sends an Idempotency-Key the operation ignores", where)
	} else if declared && key == "" {
		f.t.Errorf("%s: sends no Idempotency-Key", where)
	}
	data, _ := io.ReadAll(r.Body)
	schema := op.requestSchema()
	switch {
	case schema == nil && len(data) > 0:
		f.t.Errorf("%s: sends a body (%s), but the operation takes none", where, data)
	case schema != nil:
		if r.Header.Get("Content-Type") != "application/json" {
			f.t.Errorf("%s: Content-Type %q", where, r.Header.Get("Content-Type"))
		}
		var body interface{}
		if err := json.Unmarshal(data, &body); err != nil {
			f.t.Errorf("%s: the body is not JSON: %v", where, err)
			return
		}
		if members, ok := body.(object); ok {
			for name := range members {
				f.record(op.id, name)
			}
		}
		for _, problem := range validate(f.doc, schema, body, where+" body") {
			f.t.Error(problem)
		}
	}
}

func resolveSchema(doc object, schema object) object {
	resolved, _ := resolve(doc, schema)
	return resolved
}

func TestEveryOperatorOperationHasAMethod(t *testing.T) {
	doc := loadDocument(t)
	ops := operations(doc)
	api := &fakeAPI{t: t, doc: doc, ops: ops, sent: map[string]map[string]bool{}}
	server := httptest.NewServer(api)
	defer server.Close()
	client := cgs.NewClient("cgs_test_key", cgs.WithBaseURL(server.URL+"/functions/v1"), cgs.WithStrictDecoding(), cgs.WithMaxRetries(0))
	ctx := context.Background()

	operator := map[string]bool{}
	for _, op := range ops {
		if !op.operatorOperation() {
			if _, ok := calls[op.id]; ok {
				t.Errorf("%s is the provider API's, not the operator's", op.id)
			}
			continue
		}
		operator[op.id] = true
		call, ok := calls[op.id]
		if !ok {
			t.Errorf("operation %s (%s %s) has no SDK method", op.id, op.method, op.path)
			continue
		}
		api.mu.Lock()
		api.seen = nil
		api.mu.Unlock()
		if err := call(ctx, client); err != nil {
			t.Errorf("%s: %v", op.id, err)
		}
		api.mu.Lock()
		seen := api.seen
		api.mu.Unlock()
		if len(seen) == 0 || seen[0] != op.id {
			t.Errorf("the method for %s called %v", op.id, seen)
		}
		for _, other := range seen {
			if other != op.id {
				t.Errorf("the method for %s also called %s", op.id, other)
			}
		}
		// The other way round: each declared parameter and body member can be sent. The cursor
		// goes out only for a second page (TestIterFollowsCursors).
		for name := range op.parameters(doc, "query") {
			if !api.sent[op.id]["?"+name] && name != "cursor" {
				t.Errorf("%s: the SDK cannot send the query parameter %q", op.id, name)
			}
		}
		if schema := resolveSchema(doc, op.requestSchema()); schema != nil {
			properties, _ := schema["properties"].(object)
			for name := range properties {
				if !api.sent[op.id][name] {
					t.Errorf("%s: the SDK cannot send the body member %q", op.id, name)
				}
			}
		}
	}
	for id := range calls {
		if !operator[id] {
			t.Errorf("%s is no operator operation of the document", id)
		}
	}
}

// Every documented problem decodes, strictly, into *cgs.Error.
func TestProblemExamplesDecodeIntoError(t *testing.T) {
	doc := loadDocument(t)
	responses := at(doc, "components", "responses")
	count := 0
	for _, name := range sortedKeys(responses) {
		media := at(responses[name].(object), "content", "application/problem+json")
		examples, _ := media["examples"].(object)
		for _, key := range sortedKeys(examples) {
			example, _ := resolve(doc, examples[key].(object))
			data, _ := json.Marshal(example["value"])
			decoder := json.NewDecoder(strings.NewReader(string(data)))
			decoder.DisallowUnknownFields()
			var problem cgs.Error
			if err := decoder.Decode(&problem); err != nil {
				t.Errorf("%s/%s: %v", name, key, err)
				continue
			}
			if problem.Status == 0 || problem.Code == "" {
				t.Errorf("%s/%s: decoded without status or code: %+v", name, key, problem)
			}
			count++
		}
	}
	if count == 0 {
		t.Fatal("the document has no problem examples")
	}
}
