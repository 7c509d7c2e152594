from twlookup.cli import main

raise SystemExit(main())
