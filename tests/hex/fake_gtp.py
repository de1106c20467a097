"""A fake GTP Hex peer for the referee tests: its ``genmove`` answers come from argv.

Each argument is one ``genmove`` answer: a vertex, or ``!refuse`` (``? illegal move:
<colour> invalid``, as MoHex answers in a position it has already won), ``!crash``
(exit at once), ``!orphan-crash`` (exit at once, leaving a child that holds the output
pipe open for a few seconds, as a wrapper script's engine may), ``!resign``
(``= resign``), ``!late`` (sleep past any deadline). Options, before the answers:
``!refuse-play`` makes ``play`` refuse every move; ``!knows=a,b`` adds commands to
``list_commands`` (answered ``=``, or ``?`` with ``!refuse-time`` for ``time_settings``
and ``param_mohex``); ``!log=PATH`` appends every command received to PATH.
"""

import subprocess
import sys
import time

BASE = ["boardsize", "clear_board", "genmove", "list_commands", "name", "play", "quit"]
answers = sys.argv[1:]
options = [a for a in answers if a.startswith(("!refuse-play", "!knows=", "!log=", "!refuse-time"))]
answers = [a for a in answers if a not in options]
refuse_play = "!refuse-play" in options
refuse_time = "!refuse-time" in options
known = list(BASE)
log = None
for option in options:
    if option.startswith("!knows="):
        known += option.split("=", 1)[1].split(",")
    if option.startswith("!log="):
        log = option.split("=", 1)[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if log is not None:
        with open(log, "a", encoding="utf-8") as out:
            out.write(line.strip() + "\n")
    command = words[0]
    if command == "name":
        reply = "= fake"
    elif command == "quit":
        print("= \n", flush=True)
        break
    elif command == "list_commands":
        reply = "= " + "\n".join(sorted(known))
    elif command in ("time_settings", "param_mohex") and (refuse_time or command not in known):
        reply = f"? unknown command {command}"
    elif command == "play" and refuse_play:
        reply = "? illegal move"
    elif command == "genmove":
        answer = answers.pop(0) if answers else "!crash"
        if answer == "!crash":
            sys.exit(1)
        if answer == "!orphan-crash":
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(4)"])
            sys.exit(1)
        if answer == "!late":
            time.sleep(60)
        if answer == "!refuse":
            reply = f"? illegal move: {words[1]} invalid"
        elif answer == "!resign":
            reply = "= resign"
        else:
            reply = f"= {answer}"
    else:
        reply = "= "
    print(reply + "\n", flush=True)
