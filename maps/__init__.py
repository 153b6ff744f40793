"""The encounters that ship with Killbox, and the script that builds them (build_maps.py)."""
