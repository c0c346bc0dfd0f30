"""clubrating.rating"""
