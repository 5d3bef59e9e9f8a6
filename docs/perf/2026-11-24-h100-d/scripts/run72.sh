#!/usr/bin/env bash
# The coo, hyb and dasp GPU tests after the review's refactor (no change in
# behaviour: one random-column pass in hyb, the staging buffer device-only).
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
gputest ctest-gpu-coo-hyb-dasp.log "coo|hyb|dasp"
