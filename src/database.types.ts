export type Json = string | number | boolean | null | {
  [key: string]: Json | undefined;
} | Json[];

export type Database = {
  "public": {
    Tables: {
      "api_key": {
        Row: {
          "client_id": string;
          "created_at": string;
          "id": string;
          "key_hash": string;
          "key_prefix": string;
          "label": string;
          "last_used_at": string | null;
          "livemode": boolean;
          "revoked_at": string | null;
          "status": string;
        };
        ComputedFields: never;
        Insert: {
          "client_id": string;
          "created_at"?: string;
          "id"?: string;
          "key_hash": string;
          "key_prefix": string;
          "label"?: string;
          "last_used_at"?: string | null;
          "livemode"?: boolean;
          "revoked_at"?: string | null;
          "status"?: string;
        };
        Update: {
          "client_id"?: string;
          "created_at"?: string;
          "id"?: string;
          "key_hash"?: string;
          "key_prefix"?: string;
          "label"?: string;
          "last_used_at"?: string | null;
          "livemode"?: boolean;
          "revoked_at"?: string | null;
          "status"?: string;
        };
        Relationships: [];
      };
      "app_setting": {
        Row: {
          "key": string;
          "updated_at": string;
          "value": NonNullable<Json>;
        };
        ComputedFields: never;
        Insert: {
          "key": string;
          "updated_at"?: string;
          "value"?: NonNullable<Json>;
        };
        Update: {
          "key"?: string;
          "updated_at"?: string;
          "value"?: NonNullable<Json>;
        };
        Relationships: [];
      };
      "client_contract": {
        Row: {
          "client_id": string;
          "fee_rate": number;
        };
        ComputedFields: never;
        Insert: {
          "client_id": string;
          "fee_rate": number;
        };
        Update: {
          "client_id"?: string;
          "fee_rate"?: number;
        };
        Relationships: [];
      };
      "client_jurisdiction": {
        Row: {
          "client_id": string;
          "created_at": string;
          "jurisdiction_code": string;
        };
        ComputedFields: never;
        Insert: {
          "client_id": string;
          "created_at"?: string;
          "jurisdiction_code": string;
        };
        Update: {
          "client_id"?: string;
          "created_at"?: string;
          "jurisdiction_code"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "client_jurisdiction_jurisdiction_code_fkey";
            columns: ["jurisdiction_code"];
            isOneToOne: false;
            referencedRelation: "jurisdiction";
            referencedColumns: ["code"];
          },
        ];
      };
      "contact_submission": {
        Row: {
          "company": string | null;
          "created_at": string;
          "email": string;
          "id": string;
          "message": string;
          "messaging_handle": string | null;
          "name": string;
          "phone": string | null;
          "source": string;
          "status": string;
        };
        ComputedFields: never;
        Insert: {
          "company"?: string | null;
          "created_at"?: string;
          "email": string;
          "id"?: string;
          "message": string;
          "messaging_handle"?: string | null;
          "name": string;
          "phone"?: string | null;
          "source"?: string;
          "status"?: string;
        };
        Update: {
          "company"?: string | null;
          "created_at"?: string;
          "email"?: string;
          "id"?: string;
          "message"?: string;
          "messaging_handle"?: string | null;
          "name"?: string;
          "phone"?: string | null;
          "source"?: string;
          "status"?: string;
        };
        Relationships: [];
      };
      "currency": {
        Row: {
          "code": string;
          "is_active": boolean;
          "name": string;
          "sort_order": number;
          "symbol": string;
        };
        ComputedFields: never;
        Insert: {
          "code": string;
          "is_active"?: boolean;
          "name": string;
          "sort_order"?: number;
          "symbol": string;
        };
        Update: {
          "code"?: string;
          "is_active"?: boolean;
          "name"?: string;
          "sort_order"?: number;
          "symbol"?: string;
        };
        Relationships: [];
      };
      "event": {
        Row: {
          "client_id": string;
          "created_at": string;
          "data": NonNullable<Json>;
          "id": string;
          "livemode": boolean;
          "type": string;
        };
        ComputedFields: never;
        Insert: {
          "client_id": string;
          "created_at"?: string;
          "data": NonNullable<Json>;
          "id"?: string;
          "livemode": boolean;
          "type": string;
        };
        Update: {
          "client_id"?: string;
          "created_at"?: string;
          "data"?: NonNullable<Json>;
          "id"?: string;
          "livemode"?: boolean;
          "type"?: string;
        };
        Relationships: [];
      };
      "free_round_campaign": {
        Row: {
          "bet_amount": number;
          "cancelled_at": string | null;
          "client_id": string;
          "created_at": string;
          "currency_code": string;
          "ended_recorded_at": string | null;
          "external_id": string;
          "games": (string)[];
          "id": string;
          "livemode": boolean;
          "max_win": number | null;
          "name": string;
          "provider_id": string;
          "request_fingerprint": string;
          "rounds": number;
          "valid_from": string;
          "valid_until": string;
        };
        ComputedFields: never;
        Insert: {
          "bet_amount": number;
          "cancelled_at"?: string | null;
          "client_id": string;
          "created_at"?: string;
          "currency_code": string;
          "ended_recorded_at"?: string | null;
          "external_id": string;
          "games": (string)[];
          "id"?: string;
          "livemode": boolean;
          "max_win"?: number | null;
          "name": string;
          "provider_id": string;
          "request_fingerprint": string;
          "rounds": number;
          "valid_from": string;
          "valid_until": string;
        };
        Update: {
          "bet_amount"?: number;
          "cancelled_at"?: string | null;
          "client_id"?: string;
          "created_at"?: string;
          "currency_code"?: string;
          "ended_recorded_at"?: string | null;
          "external_id"?: string;
          "games"?: (string)[];
          "id"?: string;
          "livemode"?: boolean;
          "max_win"?: number | null;
          "name"?: string;
          "provider_id"?: string;
          "request_fingerprint"?: string;
          "rounds"?: number;
          "valid_from"?: string;
          "valid_until"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "free_round_campaign_currency_code_fkey";
            columns: ["currency_code"];
            isOneToOne: false;
            referencedRelation: "currency";
            referencedColumns: ["code"];
          },
          {
            foreignKeyName: "free_round_campaign_provider_id_fkey";
            columns: ["provider_id"];
            isOneToOne: false;
            referencedRelation: "game_provider";
            referencedColumns: ["id"];
          },
        ];
      };
      "free_round_grant": {
        Row: {
          "campaign_id": string;
          "capped_win": number;
          "client_id": string;
          "created_at": string;
          "expires_at": string;
          "game": string | null;
          "id": string;
          "last_round_id": string | null;
          "livemode": boolean;
          "paid_out_at": string | null;
          "player_id": string;
          "rounds_open": number;
          "rounds_total": number;
          "rounds_used": number;
          "status": string;
          "total_win": number;
          "updated_at": string;
        };
        ComputedFields: never;
        Insert: {
          "campaign_id": string;
          "capped_win"?: number;
          "client_id": string;
          "created_at"?: string;
          "expires_at": string;
          "game"?: string | null;
          "id"?: string;
          "last_round_id"?: string | null;
          "livemode": boolean;
          "paid_out_at"?: string | null;
          "player_id": string;
          "rounds_open"?: number;
          "rounds_total": number;
          "rounds_used"?: number;
          "status"?: string;
          "total_win"?: number;
          "updated_at"?: string;
        };
        Update: {
          "campaign_id"?: string;
          "capped_win"?: number;
          "client_id"?: string;
          "created_at"?: string;
          "expires_at"?: string;
          "game"?: string | null;
          "id"?: string;
          "last_round_id"?: string | null;
          "livemode"?: boolean;
          "paid_out_at"?: string | null;
          "player_id"?: string;
          "rounds_open"?: number;
          "rounds_total"?: number;
          "rounds_used"?: number;
          "status"?: string;
          "total_win"?: number;
          "updated_at"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "free_round_grant_campaign_id_fkey";
            columns: ["campaign_id"];
            isOneToOne: false;
            referencedRelation: "free_round_campaign";
            referencedColumns: ["id"];
          },
        ];
      };
      "game": {
        Row: {
          "category": string;
          "code": string;
          "created_at": string;
          "currencies": (string)[];
          "demo": boolean;
          "features": (string)[];
          "id": string;
          "jurisdictions": (string)[] | null;
          "name": string;
          "platforms": (string)[];
          "provider_id": string;
          "released_on": string | null;
          "restricted_countries": (string)[];
          "rtp": number | null;
          "status": string;
          "thumbnail_url": string | null;
          "updated_at": string;
          "volatility": string | null;
        };
        ComputedFields: never;
        Insert: {
          "category": string;
          "code": string;
          "created_at"?: string;
          "currencies"?: (string)[];
          "demo"?: boolean;
          "features"?: (string)[];
          "id"?: string;
          "jurisdictions"?: (string)[] | null;
          "name": string;
          "platforms"?: (string)[];
          "provider_id": string;
          "released_on"?: string | null;
          "restricted_countries"?: (string)[];
          "rtp"?: number | null;
          "status"?: string;
          "thumbnail_url"?: string | null;
          "updated_at"?: string;
          "volatility"?: string | null;
        };
        Update: {
          "category"?: string;
          "code"?: string;
          "created_at"?: string;
          "currencies"?: (string)[];
          "demo"?: boolean;
          "features"?: (string)[];
          "id"?: string;
          "jurisdictions"?: (string)[] | null;
          "name"?: string;
          "platforms"?: (string)[];
          "provider_id"?: string;
          "released_on"?: string | null;
          "restricted_countries"?: (string)[];
          "rtp"?: number | null;
          "status"?: string;
          "thumbnail_url"?: string | null;
          "updated_at"?: string;
          "volatility"?: string | null;
        };
        Relationships: [
          {
            foreignKeyName: "game_provider_id_fkey";
            columns: ["provider_id"];
            isOneToOne: false;
            referencedRelation: "game_provider";
            referencedColumns: ["id"];
          },
        ];
      };
      "game_free_rounds": {
        Row: {
          "game_id": string;
          "max_rounds": number;
          "max_validity_days": number;
          "payout_mode": string;
          "stakes": NonNullable<Json>;
          "updated_at": string;
        };
        ComputedFields: never;
        Insert: {
          "game_id": string;
          "max_rounds": number;
          "max_validity_days"?: number;
          "payout_mode": string;
          "stakes": NonNullable<Json>;
          "updated_at"?: string;
        };
        Update: {
          "game_id"?: string;
          "max_rounds"?: number;
          "max_validity_days"?: number;
          "payout_mode"?: string;
          "stakes"?: NonNullable<Json>;
          "updated_at"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "game_free_rounds_game_id_fkey";
            columns: ["game_id"];
            isOneToOne: true;
            referencedRelation: "game";
            referencedColumns: ["id"];
          },
        ];
      };
      "game_provider": {
        Row: {
          "category": string | null;
          "created_at": string;
          "games_count": number;
          "id": string;
          "jurisdictions": (string)[];
          "logo_url": string | null;
          "name": string;
          "slug": string;
          "sort_order": number;
          "status": string;
          "test_only": boolean;
        };
        ComputedFields: never;
        Insert: {
          "category"?: string | null;
          "created_at"?: string;
          "games_count"?: number;
          "id"?: string;
          "jurisdictions"?: (string)[];
          "logo_url"?: string | null;
          "name": string;
          "slug": string;
          "sort_order"?: number;
          "status"?: string;
          "test_only"?: boolean;
        };
        Update: {
          "category"?: string | null;
          "created_at"?: string;
          "games_count"?: number;
          "id"?: string;
          "jurisdictions"?: (string)[];
          "logo_url"?: string | null;
          "name"?: string;
          "slug"?: string;
          "sort_order"?: number;
          "status"?: string;
          "test_only"?: boolean;
        };
        Relationships: [];
      };
      "game_round": {
        Row: {
          "client_id": string;
          "closed_at": string | null;
          "currency_code": string;
          "free_round_grant_id": string | null;
          "game": string;
          "id": string;
          "livemode": boolean;
          "opened_at": string;
          "player_id": string;
          "provider_id": string;
          "provider_round_id": string;
          "session_id": string;
          "status": string;
          "stuck_reported_at": string | null;
          "total_bet": number;
          "total_win": number;
          "wallet_mode": string;
        };
        ComputedFields: never;
        Insert: {
          "client_id": string;
          "closed_at"?: string | null;
          "currency_code": string;
          "free_round_grant_id"?: string | null;
          "game": string;
          "id"?: string;
          "livemode": boolean;
          "opened_at"?: string;
          "player_id": string;
          "provider_id": string;
          "provider_round_id": string;
          "session_id": string;
          "status"?: string;
          "stuck_reported_at"?: string | null;
          "total_bet"?: number;
          "total_win"?: number;
          "wallet_mode"?: string;
        };
        Update: {
          "client_id"?: string;
          "closed_at"?: string | null;
          "currency_code"?: string;
          "free_round_grant_id"?: string | null;
          "game"?: string;
          "id"?: string;
          "livemode"?: boolean;
          "opened_at"?: string;
          "player_id"?: string;
          "provider_id"?: string;
          "provider_round_id"?: string;
          "session_id"?: string;
          "status"?: string;
          "stuck_reported_at"?: string | null;
          "total_bet"?: number;
          "total_win"?: number;
          "wallet_mode"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "game_round_session_id_fkey";
            columns: ["session_id"];
            isOneToOne: false;
            referencedRelation: "game_session";
            referencedColumns: ["id"];
          },
        ];
      };
      "game_session": {
        Row: {
          "api_key_id": string | null;
          "client_id": string;
          "country": string | null;
          "created_at": string;
          "currency_code": string;
          "expires_at": string;
          "game": string;
          "id": string;
          "jurisdiction": string | null;
          "kyc_status": string | null;
          "livemode": boolean;
          "player_id": string;
          "provider_id": string;
          "reality_check_minutes": number | null;
          "restricted": boolean;
          "status": string;
        };
        ComputedFields: never;
        Insert: {
          "api_key_id"?: string | null;
          "client_id": string;
          "country"?: string | null;
          "created_at"?: string;
          "currency_code": string;
          "expires_at": string;
          "game": string;
          "id"?: string;
          "jurisdiction"?: string | null;
          "kyc_status"?: string | null;
          "livemode": boolean;
          "player_id": string;
          "provider_id": string;
          "reality_check_minutes"?: number | null;
          "restricted"?: boolean;
          "status"?: string;
        };
        Update: {
          "api_key_id"?: string | null;
          "client_id"?: string;
          "country"?: string | null;
          "created_at"?: string;
          "currency_code"?: string;
          "expires_at"?: string;
          "game"?: string;
          "id"?: string;
          "jurisdiction"?: string | null;
          "kyc_status"?: string | null;
          "livemode"?: boolean;
          "player_id"?: string;
          "provider_id"?: string;
          "reality_check_minutes"?: number | null;
          "restricted"?: boolean;
          "status"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "game_session_api_key_id_fkey";
            columns: ["api_key_id"];
            isOneToOne: false;
            referencedRelation: "api_key";
            referencedColumns: ["id"];
          },
          {
            foreignKeyName: "game_session_currency_code_fkey";
            columns: ["currency_code"];
            isOneToOne: false;
            referencedRelation: "currency";
            referencedColumns: ["code"];
          },
          {
            foreignKeyName: "game_session_jurisdiction_fkey";
            columns: ["jurisdiction"];
            isOneToOne: false;
            referencedRelation: "jurisdiction";
            referencedColumns: ["code"];
          },
          {
            foreignKeyName: "game_session_provider_id_fkey";
            columns: ["provider_id"];
            isOneToOne: false;
            referencedRelation: "game_provider";
            referencedColumns: ["id"];
          },
        ];
      };
      "held_win": {
        Row: {
          "amount": number;
          "client_id": string;
          "currency_code": string;
          "decided_at": string | null;
          "decided_by": string | null;
          "held_at": string;
          "livemode": boolean;
          "reason": string | null;
          "round_id": string;
          "round_transaction_id": string;
          "status": string;
          "win_limit_id": string | null;
        };
        ComputedFields: never;
        Insert: {
          "amount": number;
          "client_id": string;
          "currency_code": string;
          "decided_at"?: string | null;
          "decided_by"?: string | null;
          "held_at"?: string;
          "livemode": boolean;
          "reason"?: string | null;
          "round_id": string;
          "round_transaction_id": string;
          "status"?: string;
          "win_limit_id"?: string | null;
        };
        Update: {
          "amount"?: number;
          "client_id"?: string;
          "currency_code"?: string;
          "decided_at"?: string | null;
          "decided_by"?: string | null;
          "held_at"?: string;
          "livemode"?: boolean;
          "reason"?: string | null;
          "round_id"?: string;
          "round_transaction_id"?: string;
          "status"?: string;
          "win_limit_id"?: string | null;
        };
        Relationships: [
          {
            foreignKeyName: "held_win_currency_code_fkey";
            columns: ["currency_code"];
            isOneToOne: false;
            referencedRelation: "currency";
            referencedColumns: ["code"];
          },
          {
            foreignKeyName: "held_win_round_id_fkey";
            columns: ["round_id"];
            isOneToOne: false;
            referencedRelation: "game_round";
            referencedColumns: ["id"];
          },
          {
            foreignKeyName: "held_win_round_transaction_id_fkey";
            columns: ["round_transaction_id"];
            isOneToOne: true;
            referencedRelation: "round_transaction";
            referencedColumns: ["id"];
          },
          {
            foreignKeyName: "held_win_win_limit_id_fkey";
            columns: ["win_limit_id"];
            isOneToOne: false;
            referencedRelation: "win_limit";
            referencedColumns: ["id"];
          },
        ];
      };
      "jurisdiction": {
        Row: {
          "autoplay_allowed": boolean;
          "blocked_countries": (string)[];
          "bonus_buy_allowed": boolean;
          "code": string;
          "countries": (string)[];
          "kyc_required": boolean;
          "max_stake": number | null;
          "max_stake_currency": string | null;
          "min_round_ms": number | null;
          "name": string;
          "reality_check_minutes": number | null;
          "regulator": string;
          "show_net_position": boolean;
          "show_session_time": boolean;
          "turbo_allowed": boolean;
          "updated_at": string;
        };
        ComputedFields: never;
        Insert: {
          "autoplay_allowed"?: boolean;
          "blocked_countries"?: (string)[];
          "bonus_buy_allowed"?: boolean;
          "code": string;
          "countries"?: (string)[];
          "kyc_required"?: boolean;
          "max_stake"?: number | null;
          "max_stake_currency"?: string | null;
          "min_round_ms"?: number | null;
          "name": string;
          "reality_check_minutes"?: number | null;
          "regulator": string;
          "show_net_position"?: boolean;
          "show_session_time"?: boolean;
          "turbo_allowed"?: boolean;
          "updated_at"?: string;
        };
        Update: {
          "autoplay_allowed"?: boolean;
          "blocked_countries"?: (string)[];
          "bonus_buy_allowed"?: boolean;
          "code"?: string;
          "countries"?: (string)[];
          "kyc_required"?: boolean;
          "max_stake"?: number | null;
          "max_stake_currency"?: string | null;
          "min_round_ms"?: number | null;
          "name"?: string;
          "reality_check_minutes"?: number | null;
          "regulator"?: string;
          "show_net_position"?: boolean;
          "show_session_time"?: boolean;
          "turbo_allowed"?: boolean;
          "updated_at"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "jurisdiction_max_stake_currency_fkey";
            columns: ["max_stake_currency"];
            isOneToOne: false;
            referencedRelation: "currency";
            referencedColumns: ["code"];
          },
        ];
      };
      "monthly_statement": {
        Row: {
          "amount_due": number;
          "bets": number;
          "client_id": string;
          "currency_code": string;
          "fee_rate": number;
          "free_round_wins": number;
          "ggr": number;
          "issued_at": string;
          "month": string;
          "provider_id": string;
          "rolled_back": number;
          "voided": number;
          "wins": number;
        };
        ComputedFields: never;
        Insert: {
          "amount_due": number;
          "bets": number;
          "client_id": string;
          "currency_code": string;
          "fee_rate": number;
          "free_round_wins": number;
          "ggr": number;
          "issued_at"?: string;
          "month": string;
          "provider_id": string;
          "rolled_back": number;
          "voided": number;
          "wins": number;
        };
        Update: {
          "amount_due"?: number;
          "bets"?: number;
          "client_id"?: string;
          "currency_code"?: string;
          "fee_rate"?: number;
          "free_round_wins"?: number;
          "ggr"?: number;
          "issued_at"?: string;
          "month"?: string;
          "provider_id"?: string;
          "rolled_back"?: number;
          "voided"?: number;
          "wins"?: number;
        };
        Relationships: [
          {
            foreignKeyName: "monthly_statement_currency_code_fkey";
            columns: ["currency_code"];
            isOneToOne: false;
            referencedRelation: "currency";
            referencedColumns: ["code"];
          },
          {
            foreignKeyName: "monthly_statement_provider_id_fkey";
            columns: ["provider_id"];
            isOneToOne: false;
            referencedRelation: "game_provider";
            referencedColumns: ["id"];
          },
        ];
      };
      "player_restriction": {
        Row: {
          "client_id": string;
          "cool_off_until": string | null;
          "livemode": boolean;
          "loss_limits": NonNullable<Json>;
          "player_id": string;
          "self_excluded_indefinitely": boolean;
          "self_excluded_until": string | null;
          "session_time_limit_minutes": number | null;
          "stake_limits": NonNullable<Json>;
          "updated_at": string;
        };
        ComputedFields: never;
        Insert: {
          "client_id": string;
          "cool_off_until"?: string | null;
          "livemode": boolean;
          "loss_limits"?: NonNullable<Json>;
          "player_id": string;
          "self_excluded_indefinitely"?: boolean;
          "self_excluded_until"?: string | null;
          "session_time_limit_minutes"?: number | null;
          "stake_limits"?: NonNullable<Json>;
          "updated_at"?: string;
        };
        Update: {
          "client_id"?: string;
          "cool_off_until"?: string | null;
          "livemode"?: boolean;
          "loss_limits"?: NonNullable<Json>;
          "player_id"?: string;
          "self_excluded_indefinitely"?: boolean;
          "self_excluded_until"?: string | null;
          "session_time_limit_minutes"?: number | null;
          "stake_limits"?: NonNullable<Json>;
          "updated_at"?: string;
        };
        Relationships: [];
      };
      "player_restriction_audit": {
        Row: {
          "action": string;
          "client_id": string;
          "created_at": string;
          "detail": NonNullable<Json>;
          "id": string;
          "livemode": boolean;
          "player_id": string;
        };
        ComputedFields: never;
        Insert: {
          "action": string;
          "client_id": string;
          "created_at"?: string;
          "detail": NonNullable<Json>;
          "id"?: string;
          "livemode": boolean;
          "player_id": string;
        };
        Update: {
          "action"?: string;
          "client_id"?: string;
          "created_at"?: string;
          "detail"?: NonNullable<Json>;
          "id"?: string;
          "livemode"?: boolean;
          "player_id"?: string;
        };
        Relationships: [];
      };
      "profile": {
        Row: {
          "created_at": string;
          "display_name": string | null;
          "email": string | null;
          "id": string;
          "messaging_handle": string | null;
          "status": string;
          "updated_at": string;
          "username": string | null;
        };
        ComputedFields: never;
        Insert: {
          "created_at"?: string;
          "display_name"?: string | null;
          "email"?: string | null;
          "id": string;
          "messaging_handle"?: string | null;
          "status"?: string;
          "updated_at"?: string;
          "username"?: string | null;
        };
        Update: {
          "created_at"?: string;
          "display_name"?: string | null;
          "email"?: string | null;
          "id"?: string;
          "messaging_handle"?: string | null;
          "status"?: string;
          "updated_at"?: string;
          "username"?: string | null;
        };
        Relationships: [];
      };
      "provider_key": {
        Row: {
          "created_at": string;
          "id": string;
          "key_hash": string;
          "key_prefix": string;
          "label": string;
          "last_used_at": string | null;
          "provider_id": string;
          "revoked_at": string | null;
          "status": string;
        };
        ComputedFields: never;
        Insert: {
          "created_at"?: string;
          "id"?: string;
          "key_hash": string;
          "key_prefix": string;
          "label"?: string;
          "last_used_at"?: string | null;
          "provider_id": string;
          "revoked_at"?: string | null;
          "status"?: string;
        };
        Update: {
          "created_at"?: string;
          "id"?: string;
          "key_hash"?: string;
          "key_prefix"?: string;
          "label"?: string;
          "last_used_at"?: string | null;
          "provider_id"?: string;
          "revoked_at"?: string | null;
          "status"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "provider_key_provider_id_fkey";
            columns: ["provider_id"];
            isOneToOne: false;
            referencedRelation: "game_provider";
            referencedColumns: ["id"];
          },
        ];
      };
      "round_transaction": {
        Row: {
          "amount": number;
          "client_id": string | null;
          "created_at": string;
          "free_round_grant_id": string | null;
          "id": string;
          "kind": string;
          "ledger_transaction_id": string | null;
          "provider_id": string;
          "related_id": string | null;
          "related_transaction_id": string | null;
          "request_fingerprint": string;
          "response_body": Json | null;
          "rolled_back": boolean;
          "round_id": string | null;
          "settled": boolean;
          "transaction_id": string;
        };
        ComputedFields: never;
        Insert: {
          "amount": number;
          "client_id"?: string | null;
          "created_at"?: string;
          "free_round_grant_id"?: string | null;
          "id"?: string;
          "kind": string;
          "ledger_transaction_id"?: string | null;
          "provider_id": string;
          "related_id"?: string | null;
          "related_transaction_id"?: string | null;
          "request_fingerprint": string;
          "response_body"?: Json | null;
          "rolled_back"?: boolean;
          "round_id"?: string | null;
          "settled"?: boolean;
          "transaction_id": string;
        };
        Update: {
          "amount"?: number;
          "client_id"?: string | null;
          "created_at"?: string;
          "free_round_grant_id"?: string | null;
          "id"?: string;
          "kind"?: string;
          "ledger_transaction_id"?: string | null;
          "provider_id"?: string;
          "related_id"?: string | null;
          "related_transaction_id"?: string | null;
          "request_fingerprint"?: string;
          "response_body"?: Json | null;
          "rolled_back"?: boolean;
          "round_id"?: string | null;
          "settled"?: boolean;
          "transaction_id"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "round_transaction_round_id_fkey";
            columns: ["round_id"];
            isOneToOne: false;
            referencedRelation: "game_round";
            referencedColumns: ["id"];
          },
        ];
      };
      "sandbox_player": {
        Row: {
          "balance": number;
          "behaviour": string;
          "client_id": string;
          "created_at": string;
          "currency_code": string;
          "player_id": string;
        };
        ComputedFields: never;
        Insert: {
          "balance"?: number;
          "behaviour"?: string;
          "client_id": string;
          "created_at"?: string;
          "currency_code": string;
          "player_id": string;
        };
        Update: {
          "balance"?: number;
          "behaviour"?: string;
          "client_id"?: string;
          "created_at"?: string;
          "currency_code"?: string;
          "player_id"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "sandbox_player_currency_code_fkey";
            columns: ["currency_code"];
            isOneToOne: false;
            referencedRelation: "currency";
            referencedColumns: ["code"];
          },
        ];
      };
      "sandbox_transaction": {
        Row: {
          "amount": number;
          "balance_after": number;
          "client_id": string;
          "created_at": string;
          "currency_code": string;
          "id": string;
          "ledger_seq": number;
          "note": string | null;
          "type": string;
        };
        ComputedFields: never;
        Insert: {
          "amount": number;
          "balance_after": number;
          "client_id": string;
          "created_at"?: string;
          "currency_code": string;
          "id"?: string;
          "ledger_seq"?: never;
          "note"?: string | null;
          "type": string;
        };
        Update: {
          "amount"?: number;
          "balance_after"?: number;
          "client_id"?: string;
          "created_at"?: string;
          "currency_code"?: string;
          "id"?: string;
          "ledger_seq"?: never;
          "note"?: string | null;
          "type"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "sandbox_transaction_wallet_fkey";
            columns: ["client_id", "currency_code"];
            isOneToOne: false;
            referencedRelation: "sandbox_wallet";
            referencedColumns: ["client_id", "currency_code"];
          },
        ];
      };
      "sandbox_wallet": {
        Row: {
          "balance": number;
          "client_id": string;
          "created_at": string;
          "currency_code": string;
          "updated_at": string;
        };
        ComputedFields: never;
        Insert: {
          "balance"?: number;
          "client_id": string;
          "created_at"?: string;
          "currency_code": string;
          "updated_at"?: string;
        };
        Update: {
          "balance"?: number;
          "client_id"?: string;
          "created_at"?: string;
          "currency_code"?: string;
          "updated_at"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "sandbox_wallet_currency_code_fkey";
            columns: ["currency_code"];
            isOneToOne: false;
            referencedRelation: "currency";
            referencedColumns: ["code"];
          },
        ];
      };
      "sportsbook_bet": {
        Row: {
          "client_id": string;
          "closed_at": string | null;
          "currency_code": string;
          "livemode": boolean;
          "odds": number;
          "owed": number;
          "paid": number;
          "payout": number;
          "placed_at": string;
          "player_id": string;
          "potential_payout": number;
          "result": string | null;
          "round_id": string;
          "selections": NonNullable<Json>;
          "settled_at": string | null;
          "settlement_transaction_id": string | null;
          "settlements": NonNullable<Json>;
          "stake": number;
          "status": string;
          "updated_at": string;
        };
        ComputedFields: never;
        Insert: {
          "client_id": string;
          "closed_at"?: string | null;
          "currency_code": string;
          "livemode": boolean;
          "odds": number;
          "owed"?: number;
          "paid"?: number;
          "payout"?: number;
          "placed_at"?: string;
          "player_id": string;
          "potential_payout": number;
          "result"?: string | null;
          "round_id": string;
          "selections": NonNullable<Json>;
          "settled_at"?: string | null;
          "settlement_transaction_id"?: string | null;
          "settlements"?: NonNullable<Json>;
          "stake": number;
          "status": string;
          "updated_at"?: string;
        };
        Update: {
          "client_id"?: string;
          "closed_at"?: string | null;
          "currency_code"?: string;
          "livemode"?: boolean;
          "odds"?: number;
          "owed"?: number;
          "paid"?: number;
          "payout"?: number;
          "placed_at"?: string;
          "player_id"?: string;
          "potential_payout"?: number;
          "result"?: string | null;
          "round_id"?: string;
          "selections"?: NonNullable<Json>;
          "settled_at"?: string | null;
          "settlement_transaction_id"?: string | null;
          "settlements"?: NonNullable<Json>;
          "stake"?: number;
          "status"?: string;
          "updated_at"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "sportsbook_bet_round_id_fkey";
            columns: ["round_id"];
            isOneToOne: true;
            referencedRelation: "game_round";
            referencedColumns: ["id"];
          },
        ];
      };
      "support_ticket": {
        Row: {
          "assigned_to": string | null;
          "client_id": string;
          "created_at": string;
          "id": string;
          "priority": string;
          "status": string;
          "subject": string;
          "updated_at": string;
        };
        ComputedFields: never;
        Insert: {
          "assigned_to"?: string | null;
          "client_id": string;
          "created_at"?: string;
          "id"?: string;
          "priority"?: string;
          "status"?: string;
          "subject": string;
          "updated_at"?: string;
        };
        Update: {
          "assigned_to"?: string | null;
          "client_id"?: string;
          "created_at"?: string;
          "id"?: string;
          "priority"?: string;
          "status"?: string;
          "subject"?: string;
          "updated_at"?: string;
        };
        Relationships: [];
      };
      "support_ticket_message": {
        Row: {
          "author_id": string;
          "body": string;
          "created_at": string;
          "id": string;
          "ticket_id": string;
        };
        ComputedFields: never;
        Insert: {
          "author_id": string;
          "body": string;
          "created_at"?: string;
          "id"?: string;
          "ticket_id": string;
        };
        Update: {
          "author_id"?: string;
          "body"?: string;
          "created_at"?: string;
          "id"?: string;
          "ticket_id"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "support_ticket_message_ticket_id_fkey";
            columns: ["ticket_id"];
            isOneToOne: false;
            referencedRelation: "support_ticket";
            referencedColumns: ["id"];
          },
        ];
      };
      "transaction": {
        Row: {
          "amount": number;
          "balance_after": number | null;
          "client_id": string;
          "created_at": string;
          "created_by": string | null;
          "currency_code": string;
          "id": string;
          "ledger_seq": number;
          "note": string | null;
          "reference": string | null;
          "type": string;
        };
        ComputedFields: never;
        Insert: {
          "amount": number;
          "balance_after"?: number | null;
          "client_id": string;
          "created_at"?: string;
          "created_by"?: string | null;
          "currency_code": string;
          "id"?: string;
          "ledger_seq"?: never;
          "note"?: string | null;
          "reference"?: string | null;
          "type": string;
        };
        Update: {
          "amount"?: number;
          "balance_after"?: number | null;
          "client_id"?: string;
          "created_at"?: string;
          "created_by"?: string | null;
          "currency_code"?: string;
          "id"?: string;
          "ledger_seq"?: never;
          "note"?: string | null;
          "reference"?: string | null;
          "type"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "transaction_currency_code_fkey";
            columns: ["currency_code"];
            isOneToOne: false;
            referencedRelation: "currency";
            referencedColumns: ["code"];
          },
        ];
      };
      "user_role": {
        Row: {
          "created_at": string;
          "id": string;
          "role": Database["public"]["Enums"]["app_role"];
          "user_id": string;
        };
        ComputedFields: never;
        Insert: {
          "created_at"?: string;
          "id"?: string;
          "role": Database["public"]["Enums"]["app_role"];
          "user_id": string;
        };
        Update: {
          "created_at"?: string;
          "id"?: string;
          "role"?: Database["public"]["Enums"]["app_role"];
          "user_id"?: string;
        };
        Relationships: [];
      };
      "wallet": {
        Row: {
          "balance": number;
          "client_active": boolean | null;
          "client_id": string;
          "created_at": string;
          "currency_code": string;
          "id": string;
          "is_primary": boolean;
          "updated_at": string;
        };
        ComputedFields: never;
        Insert: {
          "balance"?: number;
          "client_active"?: boolean | null;
          "client_id": string;
          "created_at"?: string;
          "currency_code": string;
          "id"?: string;
          "is_primary"?: boolean;
          "updated_at"?: string;
        };
        Update: {
          "balance"?: number;
          "client_active"?: boolean | null;
          "client_id"?: string;
          "created_at"?: string;
          "currency_code"?: string;
          "id"?: string;
          "is_primary"?: boolean;
          "updated_at"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "wallet_currency_code_fkey";
            columns: ["currency_code"];
            isOneToOne: false;
            referencedRelation: "currency";
            referencedColumns: ["code"];
          },
        ];
      };
      "wallet_call": {
        Row: {
          "action": string;
          "attempts": number;
          "balance": number | null;
          "client_id": string;
          "completed_at": string | null;
          "created_at": string;
          "id": string;
          "last_error": string | null;
          "livemode": boolean;
          "next_attempt_at": string;
          "request": NonNullable<Json>;
          "round_transaction_id": string;
          "status": string;
        };
        ComputedFields: never;
        Insert: {
          "action": string;
          "attempts"?: number;
          "balance"?: number | null;
          "client_id": string;
          "completed_at"?: string | null;
          "created_at"?: string;
          "id"?: string;
          "last_error"?: string | null;
          "livemode": boolean;
          "next_attempt_at"?: string;
          "request": NonNullable<Json>;
          "round_transaction_id": string;
          "status"?: string;
        };
        Update: {
          "action"?: string;
          "attempts"?: number;
          "balance"?: number | null;
          "client_id"?: string;
          "completed_at"?: string | null;
          "created_at"?: string;
          "id"?: string;
          "last_error"?: string | null;
          "livemode"?: boolean;
          "next_attempt_at"?: string;
          "request"?: NonNullable<Json>;
          "round_transaction_id"?: string;
          "status"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "wallet_call_round_transaction_id_fkey";
            columns: ["round_transaction_id"];
            isOneToOne: false;
            referencedRelation: "round_transaction";
            referencedColumns: ["id"];
          },
        ];
      };
      "wallet_setting": {
        Row: {
          "client_id": string;
          "livemode": boolean;
          "low_balance_alerts": NonNullable<Json>;
          "mode": string;
          "secret_prefix": string | null;
          "updated_at": string;
          "url": string | null;
        };
        ComputedFields: never;
        Insert: {
          "client_id": string;
          "livemode": boolean;
          "low_balance_alerts"?: NonNullable<Json>;
          "mode"?: string;
          "secret_prefix"?: string | null;
          "updated_at"?: string;
          "url"?: string | null;
        };
        Update: {
          "client_id"?: string;
          "livemode"?: boolean;
          "low_balance_alerts"?: NonNullable<Json>;
          "mode"?: string;
          "secret_prefix"?: string | null;
          "updated_at"?: string;
          "url"?: string | null;
        };
        Relationships: [];
      };
      "webhook_attempt": {
        Row: {
          "attempt": number;
          "attempted_at": string;
          "client_id": string;
          "delivery_id": string;
          "duration_ms": number;
          "error": string | null;
          "status_code": number | null;
        };
        ComputedFields: never;
        Insert: {
          "attempt": number;
          "attempted_at"?: string;
          "client_id": string;
          "delivery_id": string;
          "duration_ms": number;
          "error"?: string | null;
          "status_code"?: number | null;
        };
        Update: {
          "attempt"?: number;
          "attempted_at"?: string;
          "client_id"?: string;
          "delivery_id"?: string;
          "duration_ms"?: number;
          "error"?: string | null;
          "status_code"?: number | null;
        };
        Relationships: [
          {
            foreignKeyName: "webhook_attempt_delivery_id_fkey";
            columns: ["delivery_id"];
            isOneToOne: false;
            referencedRelation: "webhook_delivery";
            referencedColumns: ["id"];
          },
        ];
      };
      "webhook_delivery": {
        Row: {
          "attempts": number;
          "client_id": string;
          "delivered_at": string | null;
          "endpoint_id": string;
          "event_id": string;
          "id": string;
          "next_attempt_at": string;
          "retry_base": number;
          "status": string;
        };
        ComputedFields: never;
        Insert: {
          "attempts"?: number;
          "client_id": string;
          "delivered_at"?: string | null;
          "endpoint_id": string;
          "event_id": string;
          "id"?: string;
          "next_attempt_at"?: string;
          "retry_base"?: number;
          "status"?: string;
        };
        Update: {
          "attempts"?: number;
          "client_id"?: string;
          "delivered_at"?: string | null;
          "endpoint_id"?: string;
          "event_id"?: string;
          "id"?: string;
          "next_attempt_at"?: string;
          "retry_base"?: number;
          "status"?: string;
        };
        Relationships: [
          {
            foreignKeyName: "webhook_delivery_endpoint_id_fkey";
            columns: ["endpoint_id"];
            isOneToOne: false;
            referencedRelation: "webhook_endpoint";
            referencedColumns: ["id"];
          },
          {
            foreignKeyName: "webhook_delivery_event_id_fkey";
            columns: ["event_id"];
            isOneToOne: false;
            referencedRelation: "event";
            referencedColumns: ["id"];
          },
        ];
      };
      "webhook_endpoint": {
        Row: {
          "client_id": string;
          "created_at": string;
          "description": string | null;
          "enabled": boolean;
          "event_types": (string)[];
          "failing_since": string | null;
          "id": string;
          "livemode": boolean;
          "secret_prefix": string;
          "updated_at": string;
          "url": string;
        };
        ComputedFields: never;
        Insert: {
          "client_id": string;
          "created_at"?: string;
          "description"?: string | null;
          "enabled"?: boolean;
          "event_types"?: (string)[];
          "failing_since"?: string | null;
          "id"?: string;
          "livemode": boolean;
          "secret_prefix": string;
          "updated_at"?: string;
          "url": string;
        };
        Update: {
          "client_id"?: string;
          "created_at"?: string;
          "description"?: string | null;
          "enabled"?: boolean;
          "event_types"?: (string)[];
          "failing_since"?: string | null;
          "id"?: string;
          "livemode"?: boolean;
          "secret_prefix"?: string;
          "updated_at"?: string;
          "url"?: string;
        };
        Relationships: [];
      };
      "win_limit": {
        Row: {
          "created_at": string;
          "currency_code": string | null;
          "game": string | null;
          "id": string;
          "max_amount": number | null;
          "max_multiple": number | null;
          "provider_id": string | null;
        };
        ComputedFields: never;
        Insert: {
          "created_at"?: string;
          "currency_code"?: string | null;
          "game"?: string | null;
          "id"?: string;
          "max_amount"?: number | null;
          "max_multiple"?: number | null;
          "provider_id"?: string | null;
        };
        Update: {
          "created_at"?: string;
          "currency_code"?: string | null;
          "game"?: string | null;
          "id"?: string;
          "max_amount"?: number | null;
          "max_multiple"?: number | null;
          "provider_id"?: string | null;
        };
        Relationships: [
          {
            foreignKeyName: "win_limit_currency_code_fkey";
            columns: ["currency_code"];
            isOneToOne: false;
            referencedRelation: "currency";
            referencedColumns: ["code"];
          },
          {
            foreignKeyName: "win_limit_provider_id_fkey";
            columns: ["provider_id"];
            isOneToOne: false;
            referencedRelation: "game_provider";
            referencedColumns: ["id"];
          },
        ];
      };
    };
    Views: {
      [_ in never]: never;
    };
    Functions: {
      "import_games": {
        Args: { "games": Json };
        Returns: {
          "created": number;
          "unchanged": number;
          "updated": number;
        }[];
      };
      "issue_api_key": {
        Args: { "client_id": string; "label"?: string; "livemode"?: boolean };
        Returns: {
          "id": string;
          "key": string;
          "key_prefix": string;
        }[];
      };
      "issue_provider_key": {
        Args: { "label"?: string; "provider_slug": string };
        Returns: {
          "id": string;
          "key": string;
          "key_prefix": string;
        }[];
      };
      "issue_statements": { Args: { "month": string }; Returns: number };
      "record_transaction": {
        Args: {
          "amount": number;
          "client_id": string;
          "currency_code": string;
          "note"?: string;
          "reference"?: string;
          "type": string;
        };
        Returns: {
          "amount": number;
          "balance_after": number | null;
          "client_id": string;
          "created_at": string;
          "created_by": string | null;
          "currency_code": string;
          "id": string;
          "ledger_seq": number;
          "note": string | null;
          "reference": string | null;
          "type": string;
        };
        SetofOptions: {
          from: "*";
          to: "transaction";
          isOneToOne: true;
          isSetofReturn: false;
        };
      };
      "resolve_round": {
        Args: { "resolution": string; "round_id": string };
        Returns: {
          "client_id": string;
          "closed_at": string | null;
          "currency_code": string;
          "free_round_grant_id": string | null;
          "game": string;
          "id": string;
          "livemode": boolean;
          "opened_at": string;
          "player_id": string;
          "provider_id": string;
          "provider_round_id": string;
          "session_id": string;
          "status": string;
          "stuck_reported_at": string | null;
          "total_bet": number;
          "total_win": number;
          "wallet_mode": string;
        };
        SetofOptions: {
          from: "*";
          to: "game_round";
          isOneToOne: true;
          isSetofReturn: false;
        };
      };
      "retry_wallet_call": {
        Args: { "call_id": string };
        Returns: {
          "action": string;
          "attempts": number;
          "balance": number | null;
          "client_id": string;
          "completed_at": string | null;
          "created_at": string;
          "id": string;
          "last_error": string | null;
          "livemode": boolean;
          "next_attempt_at": string;
          "request": NonNullable<Json>;
          "round_transaction_id": string;
          "status": string;
        };
        SetofOptions: {
          from: "*";
          to: "wallet_call";
          isOneToOne: true;
          isSetofReturn: false;
        };
      };
      "review_win": {
        Args: { "decision": string; "reason"?: string; "win_id": string };
        Returns: {
          "amount": number;
          "client_id": string;
          "currency_code": string;
          "decided_at": string | null;
          "decided_by": string | null;
          "held_at": string;
          "livemode": boolean;
          "reason": string | null;
          "round_id": string;
          "round_transaction_id": string;
          "status": string;
          "win_limit_id": string | null;
        };
        SetofOptions: {
          from: "*";
          to: "held_win";
          isOneToOne: true;
          isSetofReturn: false;
        };
      };
      "revoke_api_key": {
        Args: { "id": string };
        Returns: {
          "key_prefix": string;
          "revoked_at": string;
          "status": string;
        }[];
      };
      "revoke_provider_key": {
        Args: { "id": string };
        Returns: {
          "key_prefix": string;
          "revoked_at": string;
          "status": string;
        }[];
      };
      "set_wallet_settings": {
        Args: {
          "client_id": string;
          "livemode"?: boolean;
          "mode": string;
          "rotate"?: boolean;
          "url"?: string;
        };
        Returns: {
          "outcome": string;
          "secret": string;
          "settings": Json;
        }[];
      };
    };
    Enums: {
      "app_role": "admin" | "manager" | "client";
    };
    CompositeTypes: {
      [_ in never]: never;
    };
  };
};

type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">;

type DefaultSchema =
  DatabaseWithoutInternals[Extract<keyof Database, "public">];

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  } ? keyof (
      & DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]][
        "Tables"
      ]
      & DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]][
        "Views"
      ]
    )
    : never = never,
> = DefaultSchemaTableNameOrOptions extends
  { schema: keyof DatabaseWithoutInternals } ? (
    & DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]][
      "Tables"
    ]
    & DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]][
      "Views"
    ]
  )[TableName] extends {
    Row: infer R;
  } ? R
  : never
  : DefaultSchemaTableNameOrOptions extends
    keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] & DefaultSchema["Views"])[
      DefaultSchemaTableNameOrOptions
    ] extends {
      Row: infer R;
    } ? R
    : never
  : never;

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]][
      "Tables"
    ]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends
  { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]][
    "Tables"
  ][TableName] extends {
    Insert: infer I;
  } ? I
  : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
      Insert: infer I;
    } ? I
    : never
  : never;

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]][
      "Tables"
    ]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends
  { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]][
    "Tables"
  ][TableName] extends {
    Update: infer U;
  } ? U
  : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
      Update: infer U;
    } ? U
    : never
  : never;

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]][
      "Enums"
    ]
    : never = never,
> = DefaultSchemaEnumNameOrOptions extends
  { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][
    EnumName
  ]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
  : never;

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  }
    ? keyof DatabaseWithoutInternals[
      PublicCompositeTypeNameOrOptions["schema"]
    ]["CompositeTypes"]
    : never = never,
> = PublicCompositeTypeNameOrOptions extends
  { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]][
    "CompositeTypes"
  ][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends
    keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
  : never;

export const Constants = {
  "public": {
    Enums: {
      "app_role": ["admin", "manager", "client"],
    },
  },
} as const;
