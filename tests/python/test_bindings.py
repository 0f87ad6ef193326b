"""The python module's ctypes table against lib/libidnguard.h.

python/idnguard.py declares each library function it calls with ctypes
(restype and argtypes): ctypes cannot read C headers, so the table repeats
the header, and a prototype changed in one and not the other would pass
wrong values at run time, silently.  This test reads both files, maps each
ctypes type to the C types it may stand for, and checks every function of
the table against the header's prototype: its return type, its number of
arguments and each argument's type.  Run by `make test` (mk/python-test.mk)
as
    python3 tests/python/test_bindings.py MODULE HEADER
and prints a Check-style summary line, which tests/run.sh counts.
"""
import ast
import re
import sys

# What each ctypes spelling of the module may stand for in C.
CTYPES = {
    "vp": {"void*", "const void*"},
    "ctypes.c_void_p": {"void*", "const void*"},
    # bytes or a string buffer: C strings and octet buffers alike
    "cp": {"char*", "const char*", "uint8_t*", "const uint8_t*"},
    "u8p": {"char*", "const char*", "uint8_t*", "const uint8_t*"},
    "sz": {"size_t"},
    "ctypes.c_int": {"int"},
    "ctypes.c_uint": {"unsigned", "unsigned int"},
    "ctypes.c_longlong": {"long long"},
    "ctypes.c_ulonglong": {"unsigned long long"},
    "ctypes.POINTER(ctypes.c_int)": {"int*"},
    "_SAY": {"idnguard_say_fn"},
    "None": {"void"},
}


def fits(spelling, ctype):
    """May the ctypes spelling stand for the C type?  c_void_p takes any
    data pointer (a ctypes buffer passed where the C side writes)."""
    if spelling in ("vp", "ctypes.c_void_p") and ctype.endswith("*"):
        return True
    return ctype in CTYPES.get(spelling, set())


def header_prototypes(text):
    """{name: (return type, [argument types])} of the header's functions."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)
    text = re.sub(r"\s+", " ", text)
    protos = {}
    for m in re.finditer(r"([A-Za-z_][\w \*]*?)\s*\b(idnguard_\w+)\s*\(([^()]*)\)\s*;", text):
        ret, name, args = m.group(1), m.group(2), m.group(3)
        ret = ret.split(";")[-1].split("}")[-1]
        types = []
        if args.strip() != "void":
            for a in args.split(","):
                # the parameter's name is the last word, unless the type
                # alone is given
                a = re.sub(r"\s*\*\s*", "* ", a).strip()
                words = a.split()
                if len(words) > 1 and not words[-1].endswith("*"):
                    words = words[:-1]
                types.append(norm(" ".join(words)))
        protos[name] = (norm(ret), types)
    return protos


def norm(t):
    return re.sub(r"\s*\*", "*", re.sub(r"\s+", " ", t).strip())


def module_table(text):
    """{name: (restype spelling, [argtype spellings])} of _load_lib's sigs."""
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "sigs" for t in node.targets):
            table = {}
            for k, v in zip(node.value.keys, node.value.values):
                res, args = v.elts
                table[k.value] = (ast.unparse(res), [ast.unparse(a) for a in args.elts])
            return table
    raise SystemExit("no sigs table in the module")


def main():
    module, header = sys.argv[1], sys.argv[2]
    protos = header_prototypes(open(header).read())
    table = module_table(open(module).read())
    checks = failures = 0

    def check(ok, what):
        nonlocal checks, failures
        checks += 1
        if not ok:
            failures += 1
            print("test_bindings.py:%s" % what)

    check(len(table) >= 20, "table: only %d functions read" % len(table))
    check(len(protos) >= 25, "header: only %d prototypes read" % len(protos))
    for name, (res, args) in sorted(table.items()):
        if name not in protos:
            check(False, "%s: not in the header" % name)
            continue
        cret, cargs = protos[name]
        ok = fits(res, cret) and len(args) == len(cargs) and all(
            fits(a, c) for a, c in zip(args, cargs))
        check(ok, "%s: the module says %s(%s), the header %s(%s)"
              % (name, res, ", ".join(args), cret, ", ".join(cargs)))
    pct = 100 * (checks - failures) // checks if checks else 0
    print("%d%%: Checks: %d, Failures: %d, Errors: 0" % (pct, checks, failures))
    sys.exit(1 if failures else 0)


main()
