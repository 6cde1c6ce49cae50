"""The page's style and its one small script, inline: nothing is fetched from elsewhere,
so the page works offline and from a folder of files (the demo's static copy).

The script zooms and moves the map (wheel, drag, pinch, the buttons, a double click),
steps through the moments with the arrow keys, shows the record's newest lines, and on a
running game's latest moment reloads the page when a newer moment is there."""

from __future__ import annotations

HEAD = (
    "<meta charset='utf-8'><meta name='viewport' content='width=device-width, initial-scale=1'>"
    "<link rel='icon' href='data:,'>"  # no icon to fetch
)

STYLE = """
:root{color-scheme:light;--ink:#2b2118;--sand:#f6efe2;--card:#fffaf1;--line:#d9c9ad;
--accent:#8a4b1c}
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:var(--ink);background:var(--sand)}
header{padding:.6rem 1rem;border-bottom:1px solid var(--line);background:var(--card);
position:sticky;top:0;z-index:2}
h1{font-size:1.2rem;margin:0}h2{font-size:1.05rem;margin:.2rem 0 .4rem}
h3{font-size:.9rem;margin:.4rem 0 0;font-weight:600}
.where{margin:.2rem 0}
.state{font-size:.75rem;padding:.1rem .45rem;border-radius:.6rem;vertical-align:middle;
background:#3d7a3d;color:#fff}.state.over{background:#6b5a4a}
.steps{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
.step,.shields,.zoom-buttons a,.zoom-buttons button{display:inline-block;padding:.3rem .6rem;
border:1px solid var(--line);border-radius:.4rem;background:#fff;color:var(--accent);
text-decoration:none;font:inherit;cursor:pointer}
.step.off{color:#b5a58f;cursor:default}.at{padding:0 .4rem;font-weight:600}
.shields{margin-left:auto}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:1rem;padding:1rem}
@media (max-width:900px){main{grid-template-columns:minmax(0,1fr);padding:.5rem}
header{position:static}}
figure{margin:0}
.map{grid-row:span 2}
.zoom{overflow:hidden;touch-action:none;border:1px solid var(--line);background:#18140f;
border-radius:.4rem;cursor:grab;position:relative}
.zoom img{display:block;width:100%;height:auto;transform-origin:0 0;user-select:none;
-webkit-user-drag:none}
.zoom-buttons{display:flex;gap:.4rem;margin:.4rem 0}
figcaption{font-size:.85rem;color:#6b5a4a}
section{background:var(--card);border:1px solid var(--line);border-radius:.4rem;
padding:.6rem .8rem;margin-bottom:1rem}
.side{background:none;border:0;padding:0;margin:0}.side section{margin-bottom:1rem}
.now ul{margin:0;padding-left:1.1rem}.wait{font-style:italic;margin:.4rem 0 0}
.battle img,img.battle{max-width:100%;height:auto;display:block;margin:.4rem 0}
.chart{width:100%;height:auto;display:block;margin:.3rem 0 .8rem}
.chart .axis{stroke:#6b5a4a}.chart .grid{stroke:#e6dac5}
.chart .tick,.chart .legend{font-size:12px;fill:#4a3b2e}
.record ol{list-style:none;margin:0;padding:0;max-height:32rem;overflow:auto}
.record li{padding:.25rem 0;border-top:1px solid #eee2cc}
.record li.current{background:#fbe9c8}
.record .n{display:inline-block;min-width:2.6rem;color:var(--accent);text-decoration:none}
.shields-table{border-collapse:collapse;width:100%;font-size:.9rem}
.shields-table th,.shields-table td{border-top:1px solid #eee2cc;text-align:left;
padding:.25rem;vertical-align:top}
"""

SCRIPT = """
(function(){
  var box=document.getElementById('zoom'),img=document.getElementById('map');
  if(box&&img){
    var s=1,x=0,y=0,pts={},pinch=null,MAX=6;
    function clamp(){
      var w=box.clientWidth,h=box.clientHeight;
      s=Math.min(MAX,Math.max(1,s));
      x=Math.min(0,Math.max(w-w*s,x));y=Math.min(0,Math.max(h-h*s,y));
      img.style.transform='translate('+x+'px,'+y+'px) scale('+s+')';
      box.style.cursor=s>1?'grab':'zoom-in';
    }
    function zoomAt(f,cx,cy){var n=Math.min(MAX,Math.max(1,s*f));
      x=cx-(cx-x)*n/s;y=cy-(cy-y)*n/s;s=n;clamp();}
    function at(e){var r=box.getBoundingClientRect();return [e.clientX-r.left,e.clientY-r.top];}
    box.addEventListener('wheel',function(e){e.preventDefault();var p=at(e);
      zoomAt(e.deltaY<0?1.2:1/1.2,p[0],p[1]);},{passive:false});
    box.addEventListener('dblclick',function(e){var p=at(e);zoomAt(s>1?1/s:2.5,p[0],p[1]);});
    box.addEventListener('pointerdown',function(e){box.setPointerCapture(e.pointerId);
      pts[e.pointerId]=at(e);});
    box.addEventListener('pointermove',function(e){
      if(!(e.pointerId in pts))return;var p=at(e),ids=Object.keys(pts);
      if(ids.length===1){x+=p[0]-pts[e.pointerId][0];y+=p[1]-pts[e.pointerId][1];
        pts[e.pointerId]=p;clamp();return;}
      pts[e.pointerId]=p;var a=pts[ids[0]],b=pts[ids[1]];
      var d=Math.hypot(a[0]-b[0],a[1]-b[1]);
      if(pinch)zoomAt(d/pinch,(a[0]+b[0])/2,(a[1]+b[1])/2);pinch=d;});
    function up(e){delete pts[e.pointerId];pinch=null;}
    box.addEventListener('pointerup',up);box.addEventListener('pointercancel',up);
    function centre(f){zoomAt(f,box.clientWidth/2,box.clientHeight/2);}
    document.getElementById('zoom-in').onclick=function(){centre(1.5);};
    document.getElementById('zoom-out').onclick=function(){centre(1/1.5);};
    document.getElementById('zoom-reset').onclick=function(){s=1;x=0;y=0;clamp();};
    window.addEventListener('resize',clamp);clamp();
  }
  document.addEventListener('keydown',function(e){
    if(e.altKey||e.ctrlKey||e.metaKey)return;
    var to={ArrowLeft:'prev',ArrowRight:'next',Home:'first',End:'latest'}[e.key];
    var link=to&&document.getElementById(to);if(link)location.href=link.href;});
  var rec=document.getElementById('record');if(rec)rec.scrollTop=rec.scrollHeight;
  var watch=document.body.dataset;
  if(watch.latest){setInterval(function(){
    fetch(watch.latest,{cache:'no-store'}).then(function(r){return r.ok?r.json():null;})
      .then(function(d){if(d&&d.action>Number(watch.action))location.href=d.page;})
      .catch(function(){});},Number(watch.every));}
})();
"""
