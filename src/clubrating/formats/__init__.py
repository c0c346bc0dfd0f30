"""clubrating.formats"""
