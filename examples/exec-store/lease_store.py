#!/usr/bin/env python3
"""A lease store in Python for `testbed --adapter exec:<command>`.

It implements four commands of the store port (Acquire, Renew, Release, Mutate) the way
model/SEMANTICS.md specifies them, and declares that it implements only those: the testbed
sends it nothing else and reports the scenarios that need more as untested.

The protocol is JSON lines on stdin/stdout (docs/ARCHITECTURE.md "Stores in other languages"):
one request per line, one reply per line with the same id. Expiry is decided by `now`, the store
time the testbed sends with each command, never by this process's own clock, so a run replays
exactly. `--no-fencing` accepts a write under any token: a broken store, to see the testbed
catch it. `--confirming-renewals` makes Renew confirm a live lease without extending it, as a lock
without heartbeats does, and declares so (capabilities.renewal "confirms").

    npx testbed run --scenario stale-holder --seed 1 --adapter exec:"python3 examples/exec-store/lease_store.py"
"""

import json
import sys

TTL_MAX_MS = 600_000
ID_MAX_LENGTH = 256
COMMANDS = ["Acquire", "Renew", "Release", "Mutate"]


def valid_id(value):
    """1..ID_MAX_LENGTH UTF-16 code units (a character outside the BMP counts two), no control character."""
    if not isinstance(value, str):
        return False
    units = len(value.encode("utf-16-le", "surrogatepass")) // 2
    return 1 <= units <= ID_MAX_LENGTH and not any(ord(c) <= 0x1F or ord(c) == 0x7F for c in value)


def valid_ttl(value):
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= TTL_MAX_MS


class LeaseStore:
    def __init__(self, fencing=True, extend=True):
        self.fencing = fencing
        self.extend = extend
        self.leases = {}  # scope -> {scope, holder, token, acquiredAt, expiresAt}
        self.last_tokens = {}  # scope -> last token issued (never reset)
        self.versions = {}  # (scope, aggregate) -> version
        self.role_epochs = {}  # role -> the highest epoch a guard proved (0 when none)

    def live(self, scope, now):
        lease = self.leases.get(scope)
        return lease if lease is not None and now < lease["expiresAt"] else None

    def stale(self, scope, now):
        live = self.live(scope, now)
        return {"kind": "Stale", "currentToken": live["token"] if live else None}

    def guard_fenced(self, guard):
        """Step 1 of Acquire and Mutate (seed 001 §92–§95): a guard below its role's stored epoch, or
        one whose epoch is no finite number, is Fenced; one that passes is stored, whatever the
        command answers next (model/SEMANTICS.md clarifications 3 and 15)."""
        if guard is None:
            return None
        role, epoch = guard.get("role"), guard.get("epoch")
        stored = self.role_epochs.get(role, 0)
        finite = isinstance(epoch, (int, float)) and not isinstance(epoch, bool) and abs(epoch) != float("inf") and epoch == epoch
        if not finite or epoch < stored:
            return {"kind": "Fenced", "role": role, "currentEpoch": stored}
        self.role_epochs[role] = epoch
        return None

    def acquire(self, c, now):
        fenced = self.guard_fenced(c.get("guard"))
        if fenced is not None:
            return fenced
        if not valid_ttl(c.get("ttlMs")):
            return {"kind": "Rejected", "reason": "ttl-out-of-bounds"}
        if not valid_id(c.get("scope")) or not valid_id(c.get("holder")) or ("waiterId" in c and not valid_id(c["waiterId"])):
            return {"kind": "Rejected", "reason": "invalid-argument"}
        live = self.live(c["scope"], now)
        if live is not None:
            return {"kind": "Busy", "holder": live["holder"], "token": live["token"], "expiresAt": live["expiresAt"]}
        if "waiterId" in c:
            return {"kind": "Rejected", "reason": "unknown-waiter"}
        token = self.last_tokens.get(c["scope"], 0) + 1
        self.last_tokens[c["scope"]] = token
        lease = {"scope": c["scope"], "holder": c["holder"], "token": token, "acquiredAt": now, "expiresAt": now + c["ttlMs"]}
        self.leases[c["scope"]] = lease
        return {"kind": "Acquired", "lease": dict(lease)}

    def renew(self, c, now):
        if not valid_ttl(c.get("ttlMs")):
            return {"kind": "Rejected", "reason": "ttl-out-of-bounds"}
        row = self.leases.get(c["scope"])
        if row is None or row["token"] != c["expectedToken"] or row["holder"] != c["holder"]:
            return self.stale(c["scope"], now)
        if now >= row["expiresAt"]:
            return {"kind": "Expired"}
        if self.extend:
            row["expiresAt"] = now + c["ttlMs"]
        return {"kind": "Renewed", "lease": dict(row)}

    def release(self, c, now):
        live = self.live(c["scope"], now)
        if live is None or live["token"] != c["token"] or live["holder"] != c["holder"]:
            return self.stale(c["scope"], now)
        del self.leases[c["scope"]]
        return {"kind": "Released", "token": live["token"]}

    def mutate(self, c, now):
        fenced = self.guard_fenced(c.get("guard"))
        if fenced is not None:
            return fenced
        live = self.live(c["scope"], now)
        fenced_out = live is None or live["token"] != c["token"] or live["holder"] != c["holder"]
        if self.fencing and fenced_out:
            return {"kind": "StaleFence", "currentToken": live["token"] if live else None}
        key = (c["scope"], c["aggregate"])
        current = self.versions.get(key, 0)
        if current != c["expectedVersion"]:
            return {"kind": "StaleVersion", "currentVersion": current}
        self.versions[key] = current + 1
        return {"kind": "Accepted", "version": current + 1, "token": c["token"]}

    def execute(self, command, now):
        handler = {"Acquire": self.acquire, "Renew": self.renew, "Release": self.release, "Mutate": self.mutate}.get(command.get("kind"))
        if handler is None:
            raise ValueError("not implemented: %s" % command.get("kind"))
        return handler(command, now)


def main():
    confirming = "--confirming-renewals" in sys.argv[1:]
    store = LeaseStore(fencing="--no-fencing" not in sys.argv[1:], extend=not confirming)
    capabilities = {"commands": COMMANDS, "deterministic": True, **({"renewal": "confirms"} if confirming else {})}
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        kind = request.get("type")
        if kind == "init":
            reply = {"type": "init_ok", "capabilities": capabilities}
        elif kind == "execute":
            try:
                reply = {"type": "outcome", "outcome": store.execute(request["command"], request["now"])}
            except Exception as error:  # a bug of the store: the testbed reports it as a finding
                reply = {"type": "error", "message": "%s: %s" % (type(error).__name__, error)}
        else:
            reply = {"type": "error", "message": "unknown request type %r" % kind}
        reply["id"] = request.get("id")
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
