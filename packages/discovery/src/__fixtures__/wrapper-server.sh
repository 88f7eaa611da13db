#!/bin/sh
# Starts the test server the way npx / uvx wrappers do: a shell that forks a helper (a long sleep)
# and runs the real server as a child instead of exec'ing it.
sleep 300 &
"$NODE" "$(dirname "$0")/test-server.mjs" --tools=3
