#!/usr/bin/env python3
"""Observation masking (SWE-agent) as a policy process, in Python with the standard library only.

ctxbench starts this script once per unit and speaks the JSON-lines protocol of
docs/process-protocol.md with it: one JSON object per line on stdin and stdout.

  ctxbench run examples/python-policy/scenario.yaml
  ctxbench verify -- python3 examples/python-policy/masking.py
"""
import json
import sys

PROTOCOL = 1
DEFAULTS = {"keepLast": 10, "keepTools": [], "maskTools": []}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def check_options(raw):
    """The options with defaults filled, or (None, field, problem)."""
    options = dict(DEFAULTS, **raw)
    for key in raw:
        if key not in DEFAULTS:
            return None, key, 'unknown option "%s"' % key
    keep_last = options["keepLast"]
    if isinstance(keep_last, bool) or not isinstance(keep_last, int) or keep_last < 0:
        return None, "keepLast", "expects a whole number >= 0"
    for key in ("keepTools", "maskTools"):
        if not isinstance(options[key], list) or not all(isinstance(t, str) for t in options[key]):
            return None, key, "expects a list of tool names"
    return options, None, None


def js_length(text):
    """String length as JavaScript counts it (UTF-16 code units), so the choice matches ctxbench's."""
    return len(text.encode("utf-16-le")) // 2


def line_count(text):
    return 0 if text == "" else len(text.split("\n"))


def mask(messages, options):
    """The context as a list: ids of messages sent as they are, full objects for masked ones."""
    results = [i for i, m in enumerate(messages) if m["role"] == "tool"]
    recent = set(results[max(0, len(results) - options["keepLast"]):])
    masked = set()
    for i in results:
        name = messages[i].get("toolName", "")
        if name in options["keepTools"]:
            continue
        if name in options["maskTools"] or i not in recent:
            masked.add(i)
    context, count = [], 0
    for i, m in enumerate(messages):
        text = "Old environment output: (%d lines omitted)" % line_count(m["text"])
        # A short result the placeholder would not shrink stays as it is.
        if i in masked and js_length(text) < js_length(m["text"]):
            context.append(dict(m, text=text, replaces=[m["id"]]))
            count += 1
        else:
            context.append(m["id"])
    return context, count


def main():
    options, messages, last_masked = None, [], 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if message["protocol"] != PROTOCOL:
                send({"type": "error", "message": "this policy speaks protocol %d" % PROTOCOL})
                return
            options, field, problem = check_options(message.get("options", {}))
            if options is None:
                send({"type": "error", "field": field, "message": problem})
                return
            send({"type": "hello", "protocol": PROTOCOL, "name": "python-masking"})
        elif kind == "event":
            if message["event"]["type"] == "message":
                messages.append(message["event"])
        elif kind == "prepare":
            context, masked = mask(messages, options)
            actions = []
            # One timeline event per change of the masked set; ctxbench counts the tokens.
            if masked != last_masked and masked > 0:
                actions.append({
                    "action": "truncate",
                    "reason": "observations older than the last %d masked" % options["keepLast"],
                    "detail": "%d tool results replaced by a placeholder" % masked,
                })
            last_masked = masked
            send({"type": "context", "step": message["step"], "messages": context, "actions": actions})
        elif kind == "recover":
            send({"type": "recover_result", "step": message["step"], "decision": "give-up"})
        elif kind == "end":
            return


if __name__ == "__main__":
    main()
