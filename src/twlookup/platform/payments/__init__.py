"""x402 payments for /api/pro routes, through the official x402 SDK."""
