"""schemathesis hooks for `make schemathesis` (scripts/schemathesis.sh).

The upload routes (plugin packages, Heat template sets) take archives under
the media types browsers and tools give them; schemathesis knows how to send
bytes only as application/octet-stream, so the others send the same bytes.
"""

import schemathesis

schemathesis.serializer.alias(
    [
        "application/gzip",
        "application/x-gzip",
        "application/x-tar",
        "application/x-compressed-tar",
        "application/zip",
        "application/x-zip-compressed",
    ],
    "application/octet-stream",
)
