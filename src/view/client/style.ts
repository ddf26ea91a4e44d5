/** The viewer's style sheet, served as /_assets/app.css (no inline style anywhere). */
export const APP_CSS = `
:root{--fg:#1d2330;--muted:#667085;--line:#d9dee7;--bg:#fff;--soft:#f5f7fa;--good:#1a7f4b;--bad:#c0362c;--accent:#2d5bd7;--warn:#b26b00}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header#top{position:sticky;top:0;z-index:2;background:#fff;border-bottom:1px solid var(--line);padding:8px 24px}
header#top a.home{font-weight:700;color:var(--fg);text-decoration:none}
main{padding:12px 24px 48px}
h1{font-size:20px;margin:6px 0}h2{font-size:16px;margin:22px 0 8px;border-bottom:1px solid var(--line);padding-bottom:3px}h3{font-size:14px;margin:12px 0 6px}
a{color:var(--accent)}
.small{font-size:12px;color:var(--muted)}
figure.forest{margin:6px 0 10px;border:1px solid var(--line);border-radius:6px;padding:8px 10px;max-width:100%;overflow-x:auto}figure.forest figcaption{font-weight:600;margin-bottom:4px}figure.forest svg text{font:11px system-ui,sans-serif;fill:var(--fg)}
table{border-collapse:collapse;margin:6px 0 12px}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600}
td.v{font-variant-numeric:tabular-nums;white-space:nowrap}
tr.sel td{background:#e9efff}
.tag{display:inline-block;border-radius:3px;padding:0 5px;margin-right:3px;font-size:12px;background:#e8ebf1}
.ok{background:#dcf3e6;color:var(--good)}.ko{background:#fbe2df;color:var(--bad)}.wn{background:#fff1d6;color:var(--warn)}
.note{background:#fff6e0;border:1px solid #f0d48a;padding:6px 10px;border-radius:4px}
li.verdict.sig{font-weight:600}
pre{margin:3px 0;padding:6px 8px;background:var(--soft);border-radius:4px;white-space:pre-wrap;word-break:break-word;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace;max-width:100%}
button.unfold{font-size:12px;margin:2px 0 6px}
.steps{max-width:1100px}
.step{border-left:3px solid var(--line);padding:4px 10px;margin:6px 0}
.step:target,.step.hl{background:#fffbe6}
.step-head{font-size:12px;color:var(--muted)}
.step-head b{color:var(--fg)}
.step-message{border-color:#9aa4b8}.step-model{border-color:var(--accent)}.step-tool{border-color:#7a5af8;margin-left:18px}
.step-gh{border-color:#1a7f4b;margin-left:18px}.step-output{border-color:#9aa4b8}
.step-model.side{opacity:.8}
section.stop{border:1px solid var(--accent);border-radius:6px;padding:6px 10px;margin:12px 0;background:#f3f6ff}
section.stop h3{margin:0 0 4px}
.field{font-size:12px;color:var(--muted);margin-top:4px}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:0 16px}
.pair>.cell{min-width:0}
.pair>.head{position:sticky;top:37px;background:#fff;z-index:1;border-bottom:1px solid var(--line)}
.filters{display:flex;gap:10px;flex-wrap:wrap;align-items:center;margin:6px 0}
form.review textarea{width:100%;max-width:640px;height:70px;font:inherit}
.keys{font-size:12px;color:var(--muted)}
kbd{border:1px solid var(--line);border-radius:3px;padding:0 4px;background:var(--soft);font-size:11px}
`;
