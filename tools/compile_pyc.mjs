// Compile Python to bytecode with the very Pyodide the site ships (run by tools/build_site.py under Node).
//
//   node tools/compile_pyc.mjs package <pyodide dir> <source root> <output dir> <module.py>...
//   node tools/compile_pyc.mjs stdlib <pyodide dir> <output zip>
//
// Pyodide 314 ships its standard library (python_stdlib.zip) and PyScript ships its own modules as source, so
// every start of the page and of the bot worker compiles every module it imports: measured, that is most of
// Pyodide's start-up (a bare loadPyodide() took 1.42 s warm with the library as published, 0.55 s with it
// compiled). Bytecode is specific to the interpreter's version, so it is made by that interpreter, here under
// Node (the same engine as Chromium, no browser needed).
//
// package: writes <output dir>/<dir>/__pycache__/<name>.<tag>.pyc for each module, as "unchecked-hash" .pyc
//   files (PEP 552): the import system uses them without comparing timestamps, which the zip PyScript unpacks in
//   the browser would not preserve. build_site.py packs them with the sources into splendor.zip.
// stdlib: writes a copy of python_stdlib.zip where each module is replaced by its bytecode (name.pyc, which
//   zipimport prefers; unchecked-hash, so no source is needed): what `pyodide py-compile` does to packages.
//   Modules that do not compile (test data with deliberate syntax errors) stay as they are. Docstrings are left out
//   of the bytecode (15% of its size; nothing the site runs reads a standard-library docstring, and the standard
//   library runs under `python -OO`, which drops them too), except in Pyodide's own packages (pyodide, _pyodide),
//   which copy docstrings onto JavaScript objects. Asserts stay (unlike -OO): the code runs as written.
//
// Both print one JSON line: {"tag": "cpython-314", "version": "3.14.2", "magic": "<hex>", "compiled": n}.
import { resolve, join, dirname } from "node:path";
import { pathToFileURL } from "node:url";

const [mode, pyodideDir, ...rest] = process.argv.slice(2);
const usage = "usage: node tools/compile_pyc.mjs package <pyodide dir> <source root> <output dir> <module.py>...\n" +
  "       node tools/compile_pyc.mjs stdlib <pyodide dir> <output zip>";
if (!pyodideDir || !(mode === "package" ? rest.length >= 3 : mode === "stdlib" && rest.length === 1)) {
  console.error(usage);
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(resolve(pyodideDir), "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: resolve(pyodideDir) + "/" });
const mount = (where, dir) => {
  py.FS.mkdirTree(where);
  py.FS.mount(py.FS.filesystems.NODEFS, { root: resolve(dir) }, where);
};

const REPORT = `
import importlib.util, json, sys
json.dumps({"tag": sys.implementation.cache_tag, "version": sys.version.split()[0],
            "magic": importlib.util.MAGIC_NUMBER.hex(), "compiled": compiled})
`;

let answer;
if (mode === "package") {
  const [sourceRoot, outDir, ...modules] = rest;
  mount("/src", sourceRoot);
  mount("/out", outDir);
  py.globals.set("modules", py.toPy(modules));
  answer = py.runPython(`
import importlib.util, os, py_compile
compiled = 0
for rel in modules:
    target = "/out/" + importlib.util.cache_from_source(rel)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    py_compile.compile("/src/" + rel, cfile=target, dfile=rel, doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    compiled += 1
` + REPORT);
} else {
  const outZip = resolve(rest[0]);
  mount("/in", pyodideDir);
  mount("/out", dirname(outZip));
  py.globals.set("out_name", outZip.slice(dirname(outZip).length + 1));
  answer = py.runPython(`
import ast, importlib._bootstrap_external as external, importlib.util, sys, zipfile
compiled = 0
where = next(p for p in sys.path if p.endswith(".zip")) + "/"  # where Pyodide mounts the library: /lib/python314.zip
KEEP_DOCSTRINGS = ("pyodide/", "_pyodide/")

def _docstring(statement):
    return (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str))

def without_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.body and _docstring(node.body[0]):
                first = node.body[0]
                node.body = node.body[1:] or [ast.copy_location(ast.Pass(), first)]
    return tree
with zipfile.ZipFile("/in/python_stdlib.zip") as source, \\
        zipfile.ZipFile("/out/" + out_name, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
    for info in source.infolist():
        data = source.read(info)
        name = info.filename
        if name.endswith(".py"):
            try:
                text = data if name.startswith(KEEP_DOCSTRINGS) else without_docstrings(ast.parse(data, where + name))
                code = compile(text, where + name, "exec", dont_inherit=True)
            except SyntaxError:
                code = None
            if code is not None:
                data = bytes(external._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))
                name = name[:-3] + ".pyc"
                compiled += 1
        entry = zipfile.ZipInfo(name, info.date_time)
        entry.compress_type = zipfile.ZIP_DEFLATED
        entry.external_attr = info.external_attr
        target.writestr(entry, data)
` + REPORT);
}
console.log(answer);
