"""The creator service's pure rules: the ad-copy check (`adcheck`), fees, tax thresholds and
withholding (`money`), and the business-ID check digit (`ubn`)."""
