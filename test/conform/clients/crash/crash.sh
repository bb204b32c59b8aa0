set -euo pipefail
echo "looking up the vehicle" >&2
relay_lookup_vehicle "AB123"
