import sys

from gui_agent.cli import main

sys.exit(main())
