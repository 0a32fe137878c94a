"""Entry: what people type, press and scan, decoded into table commands. Pure; time comes from a clock."""
