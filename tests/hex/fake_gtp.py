"""A fake GTP Hex peer for the referee tests: its ``genmove`` answers come from argv.

Each argument is one ``genmove`` answer: a vertex, or ``!refuse`` (``? illegal move:
<colour> invalid``, as MoHex answers in a position it has already won), ``!crash``
(exit at once), ``!resign`` (``= resign``), ``!late`` (sleep past any deadline).
``play`` is accepted for any vertex; ``!refuse-play`` as the first argument makes it
refuse every ``play`` instead.
"""

import sys
import time

answers = sys.argv[1:]
refuse_play = answers[:1] == ["!refuse-play"]
if refuse_play:
    answers = answers[1:]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command = words[0]
    if command == "name":
        reply = "= fake"
    elif command == "quit":
        print("= \n", flush=True)
        break
    elif command == "play" and refuse_play:
        reply = "? illegal move"
    elif command == "genmove":
        answer = answers.pop(0) if answers else "!crash"
        if answer == "!crash":
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
