package cgs

// Version is the SDK's version: the one place it is written. The User-Agent carries it.
const Version = "2.4.0"
