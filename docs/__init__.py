"""The guides (the ``*.md`` files here), installed as the package data of ``vvw.docs``
(see ``setup.py``): a command's help names a guide by where it is
(:func:`vvw.documents.guide`), in a clone or an installed wheel alike.
"""
