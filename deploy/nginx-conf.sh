#!/bin/sh
# deploy/nginx.conf filled in from the environment, written to standard output (docker-compose.yml's nginx runs it at
# start; tests/browser.py runs it; docs/deploy.md says how to run it by hand):
#   LISTEN      what nginx listens on: a port (80, 8080) or address:port
#   SERVER_A    host:port of the first server (app1:8501, 127.0.0.1:8501)
#   SERVER_B    host:port of the second (one server only: the same as SERVER_A)
#   RUN         a directory for the doors' Unix sockets, which nginx's worker user can enter (/run)
#   MHA_ALLOWED_HOSTS   optional: comma-separated host names or addresses, without scheme or port; unset or empty:
#               any host. An entry that is neither a host name nor an address is left out (never written into the file).
#   sh deploy/nginx-conf.sh [template] > nginx.conf
set -euf  # -f: an entry such as "*" is a word, not the files it matches
template=${1:-$(dirname "$0")/nginx.conf}
hosts=""
default=1
for entry in $(printf '%s' "${MHA_ALLOWED_HOSTS:-}" | tr ',' ' '); do
    name=$(printf '%s' "$entry" | tr 'A-Z' 'a-z' | sed -e 's/\.$//' -e 's/^\[//' -e 's/\]$//')
    case "$name" in
        '' | *[!a-z0-9.:-]*) continue ;;
        *:*) name="[$name]" ;;  # an IPv6 address, as nginx's $host writes it
    esac
    hosts="$hosts        \"$name\" 1;\n"
    default=0
done
awk -v listen="${LISTEN:?LISTEN}" -v a="${SERVER_A:?SERVER_A}" -v b="${SERVER_B:?SERVER_B}" -v run="${RUN:?RUN}" \
    -v hosts="$hosts" -v default="$default" '
    /# __ALLOWED_HOSTS__/ { printf "%s", hosts; next }
    { gsub(/__LISTEN__/, listen); gsub(/__SERVER_A__/, a); gsub(/__SERVER_B__/, b); gsub(/__RUN__/, run);
      gsub(/__HOSTS_DEFAULT__/, default); print }' "$template"
