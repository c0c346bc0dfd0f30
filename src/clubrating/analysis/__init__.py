"""clubrating.analysis"""
