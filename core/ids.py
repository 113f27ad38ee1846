"""What a row's id can be: the databases' 64-bit integer keys (BigAutoField).

An address or parameter carrying a larger number names no row; asked of the
database, SQLite overflows and PostgreSQL refuses it, both as server errors.
"""

ROW_ID_MAX = 2**63 - 1


def is_row_id(value: int) -> bool:
    """True when `value` could be the id of a row (positive, within 64 bits)."""
    return 0 < value <= ROW_ID_MAX
