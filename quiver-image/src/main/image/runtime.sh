#!/usr/bin/env bash
# Lays out the image's base filesystem in $2 (Jib adds it as one layer on `scratch`): a Java runtime
# jlink'd from the build's JDK at /opt/java, the shared libraries that runtime links against
# (glibc, libstdc++, zlib) copied from this machine at the paths its dynamic loader looks them up,
# an empty /tmp and /data (the working directory), and the logging configuration. No base image is pulled: this build reaches no container registry.
# Needs a glibc Linux build machine (ldd); the image runs the build JDK's version and architecture.
set -euo pipefail

java_home="$1"
root="$2"
logging="$3"   # the JUL configuration the tests and the launcher use (.mvn/jul.properties)
# java.base and what Quiver's libraries use (Calcite, Arrow, gRPC/Netty, Parquet, Hadoop-free codecs);
# ImageRunTest runs a distributed TPC-H query inside the image, so a missing module shows there
readonly MODULES=java.base,java.compiler,java.logging,java.management,java.naming,java.net.http,java.scripting,java.security.jgss,java.sql,java.xml,jdk.crypto.ec,jdk.management,jdk.unsupported,jdk.zipfs

rm -rf "$root"
mkdir -p "$root/opt" "$root/tmp" "$root/data" "$root/etc/quiver"
cp "$logging" "$root/etc/quiver/logging.properties"
"$java_home/bin/jlink" --add-modules "$MODULES" --strip-debug --no-man-pages --no-header-files --output "$root/opt/java"

# every library an executable or .so of the runtime needs, by the path ldd resolved it to, plus the
# loader itself (the line without "=>"); the runtime's own libraries are already in place
libraries() {
    local file
    for file in "$root/opt/java/bin/"* $(find "$root/opt/java/lib" -name '*.so' -o -name jspawnhelper); do
        ldd "$file" 2>/dev/null || true
    done | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | grep -v "^$root/" | sort -u
}

for library in $(libraries); do
    mkdir -p "$root$(dirname "$library")"
    cp -L "$library" "$root$library"
done
[ -e "$root/lib64/ld-linux-x86-64.so.2" ] || [ -n "$(find "$root" -maxdepth 2 -name 'ld-linux*' -print -quit)" ] \
    || { echo "runtime.sh: no dynamic loader found by ldd" >&2; exit 1; }
