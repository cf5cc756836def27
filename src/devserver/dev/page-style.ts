/**
 * The live page's style. One column below 900 px (the side panels go under the events), and every
 * wide thing (a table, a long id, raw JSON, a snippet) scrolls or wraps inside its own box, so the
 * page itself never scrolls sideways from 360 px up. Below 600 px an event's row takes three lines.
 */
export const PAGE_STYLE = `
:root { font: 14px/1.4 system-ui, sans-serif; color: #1d1f24; background: #f6f6f3; }
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; }
button { font: inherit; cursor: pointer; }
header { display: flex; flex-wrap: wrap; gap: .4rem 1rem; align-items: center; padding: .6rem 1rem; background: #1d1f24; color: #f6f6f3; }
header button { background: #3a3d45; color: #f6f6f3; border: 1px solid #5a5d66; border-radius: 4px; padding: .2rem .7rem; }
header button[aria-pressed="true"] { background: #f0c24b; color: #1d1f24; }
h1 { font-size: 1.1rem; margin: 0; }
h2 { font-size: 1rem; margin: .2rem 0 .4rem; }
h3 { font-size: .9rem; margin: .8rem 0 .3rem; }
h4 { font-size: .85rem; margin: .6rem 0 .2rem; }
.status[data-state="live"] { color: #7bd88f; }
.status[data-state="disconnected"] { color: #ff7a7a; }
.counts { margin-left: auto; }
.actions { display: flex; gap: .4rem; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(18rem, 2fr); gap: 1rem; padding: 1rem; }
@media (max-width: 900px) {
  main { grid-template-columns: minmax(0, 1fr); padding: .6rem; }
  .counts { margin-left: 0; width: 100%; }
}
.search input { width: 100%; padding: .45rem .6rem; border: 1px solid #c8c8c0; border-radius: 4px; font: inherit; }
.note { margin: .4rem 0; }
.note button, .pager button, #older, .raw-toggle { background: #fff; border: 1px solid #c8c8c0; border-radius: 4px; padding: .15rem .6rem; }
ul#events { list-style: none; margin: .5rem 0; padding: 0; }
.rating-good { color: #1a7f37; }
.rating-needs-improvement { color: #9a6700; }
.rating-poor { color: #cf222e; font-weight: 600; }
.heatmap { margin: .4rem 0 .8rem; }
.heatmap canvas { display: block; max-width: 100%; background: #fff; border: 1px solid #c8c8c0; }
li.event { background: #fff; border: 1px solid #e2e2dc; border-radius: 4px; margin-bottom: 4px; }
li.event.warn { border-left: 4px solid #d48a00; }
li.event .row { display: grid; grid-template-columns: 5.7rem minmax(0, 1.6fr) minmax(0, 1.1fr) minmax(0, 1.2fr) minmax(0, 5.5rem); gap: .5rem; align-items: baseline; width: 100%; padding: .35rem .5rem; text-align: left; background: none; border: 0; color: inherit; }
li.event .row:focus-visible { outline: 2px solid #3b6fd8; outline-offset: -2px; }
li.event .row > * { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
li.event .name { font-weight: 600; }
li.event .time { font-size: 13px; }
li.event .place { display: flex; color: #3d4350; }
li.event .place .host { flex: 0 1000 auto; min-width: 2.5em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; color: #6b6e76; }
li.event .place .path { flex: 0 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
li.event .lib { font-size: 12px; text-align: right; }
.person { display: flex; align-items: baseline; min-width: 0; }
.person .head { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
.person .tail { flex: none; white-space: nowrap; }
.person .dot { flex: none; align-self: center; width: .6rem; height: .6rem; border-radius: 50%; margin-right: .35rem; }
@media (max-width: 600px) {
  li.event .row { grid-template-columns: minmax(0, 1fr) auto; gap: .1rem .5rem; }
  li.event .row .name { grid-column: 1; grid-row: 1; }
  li.event .row .time { grid-column: 2; grid-row: 1; font-size: 12px; text-align: right; }
  li.event .row .place { grid-column: 1 / -1; grid-row: 2; font-size: 12px; }
  li.event .row .distinct { grid-column: 1; grid-row: 3; font-size: 13px; }
  li.event .row .lib { grid-column: 2; grid-row: 3; }
  td.who { max-width: 8rem; }
}
.details { padding: .3rem .5rem .5rem; border-top: 1px solid #e2e2dc; background: #fbfbf8; }
.scroll { overflow-x: auto; max-width: 100%; }
pre.props { margin: .4rem 0 0; padding: .5rem; background: #f1f1ec; overflow: auto; max-height: 30rem; font-size: 12px; white-space: pre-wrap; word-break: break-all; }
.warning { color: #8a5a00; }
.muted { color: #6b6e76; }
.error { color: #b00020; }
aside section { background: #fff; border: 1px solid #e2e2dc; border-radius: 4px; padding: .6rem; margin-bottom: 1rem; min-width: 0; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th { white-space: nowrap; }
th, td { text-align: left; padding: .2rem .4rem; border-bottom: 1px solid #eee; vertical-align: top; overflow-wrap: anywhere; }
td.key { font-family: ui-monospace, monospace; white-space: nowrap; }
td.who { max-width: 11rem; }
/* A column per flag: its key wraps in the header rather than push the table past its panel. */
#assignments th { white-space: normal; overflow-wrap: break-word; }
#assignments td { overflow-wrap: break-word; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
.empty { background: #fff; border: 1px solid #e2e2dc; border-radius: 4px; padding: .8rem 1rem; margin: .5rem 0; }
.empty h2 { margin-top: 0; }
.snippet { position: relative; margin-top: .8rem; }
.snippet h3 { margin: 0 0 .3rem; }
.snippet button { position: absolute; top: 0; right: 0; background: #fff; border: 1px solid #c8c8c0; border-radius: 4px; padding: .1rem .6rem; }
.snippet pre { margin: 0; padding: .6rem; background: #1d1f24; color: #f6f6f3; border-radius: 4px; font-size: 12px; overflow-x: auto; white-space: pre; }
td.off { color: #9a9a9a; }
td.on { color: #0a7d32; font-weight: 600; }
ul#rejection-list { list-style: none; margin: 0; padding: 0; }
ul#rejection-list li { border-bottom: 1px solid #eee; padding: .3rem 0; }
ul#rejection-list pre { margin: .2rem 0 0; padding: .3rem; background: #f6f6f3; font-size: 12px; white-space: pre-wrap; word-break: break-all; max-height: 8rem; overflow: auto; }
.pager { display: flex; gap: .5rem; align-items: center; margin-top: .4rem; }
dialog { max-width: min(32rem, calc(100vw - 2rem)); border: 1px solid #c8c8c0; border-radius: 6px; }
dialog .buttons { display: flex; gap: .5rem; justify-content: flex-end; margin-top: 1rem; }
code { overflow-wrap: anywhere; }
`;
