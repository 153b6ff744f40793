#!/bin/sh
# /usr/bin/killbox: start the frozen app installed under /usr/lib/killbox.
exec /usr/lib/killbox/killbox "$@"
