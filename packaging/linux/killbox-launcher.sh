#!/bin/sh
# /usr/bin/killbox: start the frozen app installed under /opt/killbox.
exec /opt/killbox/killbox "$@"
