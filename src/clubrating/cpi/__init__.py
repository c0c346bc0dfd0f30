"""clubrating.cpi"""
