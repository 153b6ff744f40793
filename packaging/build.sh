#!/usr/bin/env bash
# Build the standalone Killbox: a PyInstaller folder, a .deb and a portable .tar.gz.
# Usage: packaging/build.sh [OUT_DIR]   (default: dist/). Needs PyInstaller in $PYTHON
# (pip install -e '.[test]' brings it) and dpkg-deb; works offline.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(mkdir -p "${1:-$ROOT/dist}" && cd "${1:-$ROOT/dist}" && pwd)
PYTHON=${PYTHON:-python3}
VERSION=$("$PYTHON" -c 'import importlib.metadata as m; print(m.version("killbox"))')
ARCH=$(dpkg --print-architecture)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "== PyInstaller (one folder)"
"$PYTHON" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$WORK/dist" --workpath "$WORK/build" "$ROOT/packaging/killbox.spec"
APP="$WORK/dist/killbox"

echo "== strip libpython and the extension modules"
# Done here rather than with PyInstaller's strip option, which also strips numpy's
# bundled libraries and breaks its import.
find "$APP" -type f \( -name 'libpython3*.so*' -o -name '*.cpython-3*.so' -o -name '*.abi3.so' \) \
    -print0 | xargs -0 strip --strip-unneeded

echo "== .deb"
DEB_ROOT="$WORK/deb"
mkdir -p "$DEB_ROOT/DEBIAN" "$DEB_ROOT/opt" "$DEB_ROOT/usr/bin" \
    "$DEB_ROOT/usr/share/applications" "$DEB_ROOT/usr/share/icons/hicolor/256x256/apps"
cp -a "$APP" "$DEB_ROOT/opt/killbox"
install -m 0755 "$ROOT/packaging/linux/killbox-launcher.sh" "$DEB_ROOT/usr/bin/killbox"
install -m 0644 "$ROOT/packaging/linux/killbox.desktop" "$DEB_ROOT/usr/share/applications/"
install -m 0644 "$ROOT/assets/icons/killbox-256.png" \
    "$DEB_ROOT/usr/share/icons/hicolor/256x256/apps/killbox.png"
GLIBC=$("$PYTHON" "$ROOT/packaging/glibc_needed.py" "$APP")
INSTALLED_KB=$(du -sk "$DEB_ROOT/opt" "$DEB_ROOT/usr" | awk '{s += $1} END {print s}')
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$ARCH/" -e "s/@GLIBC@/$GLIBC/" \
    -e "s/@SIZE@/$INSTALLED_KB/" "$ROOT/packaging/linux/control.in" > "$DEB_ROOT/DEBIAN/control"
DEB="$OUT/killbox_${VERSION}_${ARCH}.deb"
dpkg-deb --root-owner-group -Zxz --build "$DEB_ROOT" "$DEB" >/dev/null

echo "== portable .tar.gz"
TGZ="$OUT/killbox-${VERSION}-linux-${ARCH}.tar.gz"
tar -C "$WORK/dist" -czf "$TGZ" killbox
rm -rf "$OUT/killbox" && cp -a "$APP" "$OUT/killbox"

echo "== sizes"
printf 'deb: %s (%d bytes)\n' "$DEB" "$(stat -c %s "$DEB")"
printf 'tar.gz: %s (%d bytes)\n' "$TGZ" "$(stat -c %s "$TGZ")"
printf 'installed folder: %d KiB\n' "$(du -sk "$OUT/killbox" | cut -f1)"
printf 'requires glibc >= %s\n' "$GLIBC"
