"""A small page where every guard has something to catch, and its task file."""

from __future__ import annotations

PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>guards</title>
<style>body{margin:0;font:14px sans-serif} .b{position:absolute;box-sizing:border-box;border:1px solid #444}</style></head>
<body>
<button id="inc" class="b" style="left:10px;top:10px;width:80px;height:30px">+1</button>
<div id="count" class="b" style="left:100px;top:10px;width:60px;height:30px">0</div>
<div id="open" class="b" style="left:10px;top:60px;width:60px;height:30px">open</div>
<div id="close" class="b" style="left:100px;top:60px;width:60px;height:30px">close</div>
<div id="panel" class="b" style="left:10px;top:110px;width:150px;height:40px;display:none;background:#fc0">panel</div>
<input id="field" class="b" style="left:10px;top:170px;width:200px;height:30px">
<script>
  window.keys = [];
  document.addEventListener('keydown', (e) => keys.push((e.ctrlKey ? 'ctrl+' : '') + (e.shiftKey ? 'shift+' : '') + e.key.toLowerCase()));
  const count = document.getElementById('count');
  document.getElementById('inc').addEventListener('click', () => count.textContent = String(Number(count.textContent) + 1));
  document.getElementById('open').addEventListener('click', () => document.getElementById('panel').style.display = 'block');
  document.getElementById('close').addEventListener('click', () => document.getElementById('panel').style.display = 'none');
</script></body></html>
"""

TASK = """id: test/guards
instruction: Press +1 three times.
environment:
  kind: browser
  url: {url}
  viewport: {{width: 320, height: 240}}
evaluator:
  js_truthy: {{expression: "Number(document.getElementById('count').textContent) >= 3"}}
limits: {{max_steps: 12, step_timeout_s: 5, episode_timeout_s: 60}}
guards:
  forbidden_keys: [[ctrl, w], [alt, f4]]
  forbidden_text: ['rm\\s+-rf']
  protected_paths: [{protected}]
  doom_loop: {{max_repeats: 4}}
"""

#: Centres of the page's controls, in screenshot pixels.
INC, BLANK, OPEN, CLOSE, FIELD = (50, 25), (250, 220), (40, 75), (130, 75), (100, 185)
