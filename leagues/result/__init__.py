"""Results: entering, signing off, correcting (results), the finished table's result (table_result), what leagues
does when games' tables change (for_games), and the leagues', rankings' and results' pages (views)."""
