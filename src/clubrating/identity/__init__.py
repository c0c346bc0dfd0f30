"""clubrating.identity"""
