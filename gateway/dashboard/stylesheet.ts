// The dashboard's one stylesheet, served at /dashboard/static/dashboard.css (the pages' CSP allows no inline style).
export const STYLESHEET = `
:root{--ink:#1d2330;--muted:#5b6475;--line:#dde1e8;--bg:#f5f6f8;--card:#fff;--accent:#2448b8;--danger:#b00020;--ok:#1b7a3d}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--accent)}
header.top{display:flex;align-items:center;gap:1rem;padding:.6rem 1.5rem;background:var(--card);border-bottom:1px solid var(--line);flex-wrap:wrap}
header.top .brand{font-weight:600}
nav.main{display:flex;gap:.25rem;flex-wrap:wrap;align-items:center;flex:1}
nav.main a{padding:.35rem .6rem;border-radius:6px;text-decoration:none;color:var(--ink)}
nav.main a[aria-current=page]{background:#e7ecfa;color:var(--accent);font-weight:600}
.who{color:var(--muted);font-size:.9rem}
main{max-width:72rem;margin:1.5rem auto;padding:0 1.5rem}
main.narrow{max-width:28rem;margin-top:10vh}
h1{font-size:1.4rem;margin:.2rem 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .6rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1.2rem 1.4rem;margin-bottom:1.2rem}
.card>h2:first-child{margin-top:0}
table{width:100%;border-collapse:collapse;background:var(--card);margin-bottom:1.2rem}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.85rem;color:var(--muted);font-weight:600}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em;word-break:break-all}
label{display:block;font-weight:600;margin:.8rem 0 .25rem}
input,select{font:inherit;padding:.45rem .55rem;border:1px solid #b9c0cc;border-radius:6px;width:100%;max-width:32rem;background:#fff}
input[type=checkbox]{width:auto}
button{font:inherit;padding:.45rem .9rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer}
button.secondary{background:#fff;color:var(--accent)}
button.danger{background:#fff;color:var(--danger);border-color:var(--danger)}
button.link{background:none;border:none;color:var(--accent);padding:.35rem .6rem}
form.inline{display:inline}
.actions{display:flex;gap:.5rem;flex-wrap:wrap;margin-top:1rem}
.field-error{color:var(--danger);font-size:.9rem;margin:.2rem 0 0}
.alert{padding:.7rem 1rem;border-radius:6px;margin-bottom:1rem;border:1px solid}
.alert.error{color:var(--danger);border-color:#f0b8c2;background:#fdf0f2}
.alert.ok{color:var(--ok);border-color:#b5dcc3;background:#eef8f1}
.secret{display:block;padding:.6rem .8rem;background:#fff8e1;border:1px solid #f0d68a;border-radius:6px;margin:.4rem 0}
.muted{color:var(--muted)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1.2rem;margin:0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0}
.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:1rem;margin-bottom:1.2rem}
.stats .card{margin:0}
.stats .n{font-size:1.6rem;font-weight:600}
.badge{display:inline-block;padding:0 .45rem;border-radius:999px;font-size:.8rem;border:1px solid var(--line);background:#f0f2f5}
.badge.bad{color:var(--danger);border-color:#f0b8c2;background:#fdf0f2}
.badge.good{color:var(--ok);border-color:#b5dcc3;background:#eef8f1}
`;
