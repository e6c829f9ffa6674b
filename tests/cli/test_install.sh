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
    km_params *params;
    double C;
    if (km_params_new(&params) || km_params_get_double(params, KM_PARAM_C, &C))
        return 1;
    printf("%s %g\n", km_version(), C);
    km_params_free(params);
    return km_version_number() == KM_VERSION_NUMBER ? 0 : 1;
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
# the soname names MAJOR.MINOR while the version is 0.x, MAJOR from 1.0 on
VERSION=$("$KM" --version | cut -d' ' -f2)
case $VERSION in 0.*) ABI=${VERSION%.*} ;; *) ABI=${VERSION%%.*} ;; esac
SONAME=$(objdump -p "$(pkg-config --variable=libdir kernelmix)/libkernelmix.so" 2>/dev/null | awk '/SONAME/ {print $2}')
[ "$SONAME" = "libkernelmix.so.$ABI" ] || fail "soname $SONAME for version $VERSION"
finish
