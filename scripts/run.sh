#!/usr/bin/env bash
# Set up (if needed) and start the assistant's HTTP service with the chat widget on the
# embedded generator: open the printed URL in a browser. Extra args go to `assistant serve`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
exec "$ROOT/.venv/bin/assistant" serve "$@"
