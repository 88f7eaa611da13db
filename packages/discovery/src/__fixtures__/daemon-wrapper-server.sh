#!/bin/sh
# Starts the test server behind a helper that daemonizes, as a server that launches a browser or a
# background service does: the helper's child gets a session and process group of its own (Node's
# `detached` is setsid) and its parent exits at once, so the child is re-parented away from the tree.
# Its pid is written to $DAEMON_PID_FILE.
"$NODE" -e "const c = require('node:child_process').spawn('sleep', ['300'], { detached: true, stdio: 'ignore' }); require('node:fs').writeFileSync(process.env.DAEMON_PID_FILE, String(c.pid)); c.unref();"
"$NODE" "$(dirname "$0")/test-server.mjs" --tools=3
