import sys

from keezbord.host.cli import main

sys.exit(main())
