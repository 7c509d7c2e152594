"""life: holidays, lottery draws and checks, receipt-lottery numbers and checks, fuel prices
(spec document 3, "life")."""
