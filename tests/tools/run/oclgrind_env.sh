#!/bin/sh
# Runs "$@" for a test on Oclgrind. Oclgrind 21.10 deletes its image objects through a base class
# of another size, which AddressSanitizer reports as new-delete-type-mismatch inside the driver
# (liboclgrind-rt), not in AnyCL; that one check is turned off, the others stay as set.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}new_delete_type_mismatch=0" exec "$@"
