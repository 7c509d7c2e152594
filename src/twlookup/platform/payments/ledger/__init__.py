"""The local USDC ledger of the "local" facilitator mode, kept in the SQL store.

`LedgerSigner` implements the x402 SDK's `FacilitatorEvmSigner` protocol by emulating, against
three tables, exactly the contract calls that the SDK's exact-EVM facilitator makes for EIP-3009
USDC payments:

- on the token: `balanceOf`, `authorizationState(authorizer, nonce)`, `name`, `version`,
  `decimals`, `symbol`, and `transferWithAuthorization` in both overloads (v,r,s and bytes
  signature). Through `read_contract` (an `eth_call`) the transfer is only simulated; through
  `write_contract` (or `send_transaction` with its calldata) it is executed like FiatTokenV2 does:
  validity window, unused nonce, EIP-712 signature recovered with eth_account over the token's own
  domain, sufficient balance; then, in one database transaction, the nonce is marked used (an
  insert that must succeed: a unique violation means replay, also across processes sharing
  PostgreSQL) and the balance moves (`UPDATE ... WHERE amount >= :value`, so it never goes
  negative).
- on Multicall3 (`tryAggregate`, which the SDK's `multicall` helper uses, and `aggregate3`): the
  encoded sub-calls are decoded and run read-only against the ledger, with the state they change
  carried from one sub-call to the next as on chain, and the results returned as
  `(success, returnData)` pairs with revert data encoded as `Error(string)`.

Reverts raise `LedgerRevert`, whose message reads like a node's ("execution reverted: FiatTokenV2:
authorization is expired"), so the SDK maps it to its own invalid reasons.

Every account other than a known token or Multicall3 is an EOA (`get_code` returns b""); token
addresses report placeholder bytecode, since the SDK refuses assets without code. The signer is
bound to one network per use (`signer_for(network)`), because the SDK hands the signer no chain
id: a contract call carries only the contract address, and `get_chain_id()` takes no argument.
Transaction hashes are deterministic (keccak of the chain id, token and authorization), and
`wait_for_transaction_receipt` answers from the transfer log, with the ERC-20 `Transfer` event the
SDK checks, so any process sharing the store can confirm a settlement.

Amounts are integers of the token's smallest unit, at most 2**63 - 1 per balance (the range that
SQLite stores exactly; PostgreSQL keeps them in NUMERIC(78, 0)).

The package, by subject: `tokens` (which tokens, their EIP-712 domains), `balances` (the store's
balances and log, `Ledger` for funding and reading), `contract` (the emulated token contract: its
functions, checks and reverts), `signer` (`LedgerSigner`, the SDK's signer over all of it). The
tables are in `payments.ledger_tables`, which the store's metadata imports without the Ethereum
libraries.
"""

from twlookup.platform.payments.ledger.balances import EngineSource, Ledger, TransferRecord
from twlookup.platform.payments.ledger.contract import LedgerRevert
from twlookup.platform.payments.ledger.signer import DEFAULT_TREASURY_ADDRESS, LedgerSigner, signer_for
from twlookup.platform.payments.ledger.tokens import Token, default_token, token_for
from twlookup.platform.payments.ledger_tables import LEDGER_TABLES, LedgerAuthorization, LedgerBalance, LedgerTransfer

__all__ = [
    "DEFAULT_TREASURY_ADDRESS",
    "LEDGER_TABLES",
    "EngineSource",
    "Ledger",
    "LedgerAuthorization",
    "LedgerBalance",
    "LedgerRevert",
    "LedgerSigner",
    "LedgerTransfer",
    "Token",
    "TransferRecord",
    "default_token",
    "signer_for",
    "token_for",
]
