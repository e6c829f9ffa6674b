# 'cmake --install' into a fresh prefix gives a library, header, tool and pkg-config file that a
# program builds against, linked shared and static.
. "$(dirname "$0")/lib.sh" "$@"
need cc
need pkg-config

BUILD=$(dirname "$KM")
cmake --install "$BUILD" --prefix "$WORK/prefix" >"$WORK/install.log" 2>&1 || { fail "install: $(tail -3 "$WORK/install.log")"; finish; }
PC=$(find "$WORK/prefix" -name kernelmix.pc)
[ -n "$PC" ] || { fail "no kernelmix.pc installed"; finish; }
export PKG_CONFIG_PATH=$(dirname "$PC")
cat >"$WORK/use.c" <<'C'
#include <kernelmix.h>
#include <stdio.h>
int main(void)
{
    km_params params = km_params_default();
    printf("%s %g\n", km_version(), params.C);
    return 0;
}
C
cc "$WORK/use.c" $(pkg-config --cflags --libs kernelmix) -Wl,-rpath,"$(pkg-config --variable=libdir kernelmix)" \
    -o "$WORK/use_shared" || fail "building against the shared library"
cc "$WORK/use.c" $(pkg-config --cflags kernelmix) "$(pkg-config --variable=libdir kernelmix)/libkernelmix.a" \
    $(pkg-config --static --libs-only-l kernelmix | sed 's/-lkernelmix//') -o "$WORK/use_static" ||
    fail "building against the static library"
for program in use_shared use_static; do
    [ -x "$WORK/$program" ] && { [ "$("$WORK/$program")" = "$("$KM" --version | cut -d' ' -f2) 1" ] || fail "$program output"; }
done
[ -x "$WORK/prefix/bin/kernelmix" ] || fail "kernelmix not installed"
finish
