from clubrating.cli import main

raise SystemExit(main())
