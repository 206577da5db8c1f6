"""The oracle of test/unit/replaceOracle.test.ts: Python's re.sub over a tree, line by line.

Reads one JSON request on stdin: the tree's root, the files git shows in it (`git ls-files --others
--exclude-standard`), the hidden-path patterns, and the replacements in Python's own syntax. Decides by itself which
files are text and in which encoding (a BOM; windows-1252 for names with ".w1252."; else strict UTF-8), passes over
binary files (a NUL byte outside UTF-16) and files that do not decode, replaces within each line (a line ends at
"\n", and a "\r" before it is the line's ending too), and writes each changed file's expected bytes, base64, with the
number of replacements, as one JSON answer on stdout.
"""

import base64
import codecs
import fnmatch
import json
import os
import re
import sys


def shape(name, data):
    """(codec to decode with, BOM bytes to write back), or None when the file is not text to Python."""
    if data.startswith(codecs.BOM_UTF16_LE):
        return ("utf-16-le", codecs.BOM_UTF16_LE)
    if data.startswith(codecs.BOM_UTF16_BE):
        return ("utf-16-be", codecs.BOM_UTF16_BE)
    if b"\x00" in data:
        return None
    if data.startswith(codecs.BOM_UTF8):
        return ("utf-8", codecs.BOM_UTF8)
    if ".w1252." in name:
        return ("cp1252", b"")
    return ("utf-8", b"")


def replace_lines(text, pattern, repl):
    """Line breaks in repl take the line's own ending; on a last line without one, CRLF in an all-CRLF text."""
    out = []
    total = 0
    crlf = text.count("\r\n")
    file_ending = "\r\n" if crlf > 0 and text.count("\n") == crlf else "\n"
    for line in re.split(r"(?<=\n)", text):
        ending = ""
        if line.endswith("\r\n"):
            body, ending = line[:-2], "\r\n"
        elif line.endswith("\n"):
            body, ending = line[:-1], "\n"
        else:
            body = line
        new, count = pattern.subn(repl.replace("\n", ending or file_ending), body)
        total += count
        out.append(new + ending)
    return "".join(out), total


def main():
    request = json.load(sys.stdin)
    root = request["root"]
    hidden = request["hidden"]
    answers = []
    for case in request["cases"]:
        flags = 0 if case["case_sensitive"] else re.IGNORECASE
        pattern = re.compile(case["pattern"], flags)
        files = {}
        total = 0
        for relative in request["files"]:
            name = os.path.basename(relative)
            if any(fnmatch.fnmatch(name, glob) for glob in hidden):
                continue
            with open(os.path.join(root, relative), "rb") as handle:
                data = handle.read()
            found = shape(name, data)
            if found is None:
                continue
            codec, bom = found
            try:
                text = data[len(bom):].decode(codec, errors="strict")
            except UnicodeDecodeError:
                continue
            new, count = replace_lines(text, pattern, case["repl"])
            if count == 0:
                continue
            total += count
            files[relative] = {"count": count, "bytes": base64.b64encode(bom + new.encode(codec)).decode("ascii")}
        answers.append({"total": total, "files": files})
    json.dump({"answers": answers}, sys.stdout)


main()
