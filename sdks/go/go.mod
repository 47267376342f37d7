module github.com/casino-gaming/cgs-go/v2

go 1.19
