// The loading screen's progress, from what has really happened (index.html shows it until Python takes over).
// Files arriving move the bar; while Python starts (the long, silent part: compiling the runtime) it creeps on
// slowly so the page visibly lives, but never past the next real step.
(() => {
  const bar = document.getElementById("load-progress");
  const step = document.getElementById("load-step");
  if (!bar || !step) return;
  const steps = [
    ["pyscript/core.js", 10, "Loading the game…"],
    ["python_stdlib.zip", 25, "Loading the game…"],
    ["pyodide.asm.wasm", 40, "Starting the game…"],
    ["splendor.zip", 88, "Loading the rules…"],
    ["splendor/web/main.py", 94, "Setting out the cards…"],
  ];
  let best = 5;
  let ceiling = 5;
  const alive = () => document.getElementById("load-progress") !== null;
  const show = (value, text) => {
    if (value <= best || !alive()) return;
    best = value;
    bar.value = value;
    bar.textContent = value + "%";
    if (text) step.textContent = text;
  };
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        for (const [name, value, text] of steps) {
          if (entry.name.endsWith(name)) {
            show(value, text);
            if (name === "pyodide.asm.wasm") ceiling = 85;
          }
        }
      }
    }).observe({ type: "resource", buffered: true });
  } catch (e) { /* an old browser: the bar just waits */ }
  const creep = setInterval(() => {
    if (!alive()) return clearInterval(creep);
    if (best < ceiling) show(best + 1);
  }, 120);
  setTimeout(() => {
    if (alive()) step.textContent = "Still loading… the first visit downloads about 9 MB; later visits start faster.";
  }, 20000);
})();
