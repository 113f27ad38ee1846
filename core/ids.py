"""What a row's id can be: a positive number of the databases' 64-bit keys
(BigAutoField), in the range the database itself declares.

An address or parameter carrying a larger number names no row; asked of the
database, SQLite overflows and PostgreSQL refuses it, both as server errors.
"""

from django.db import connection


def is_row_id(value: int) -> bool:
    """True when `value` could be the id of a row (positive, within the key)."""
    return 0 < value <= connection.ops.integer_field_range("BigAutoField")[1]
