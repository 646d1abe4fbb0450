package pdftext
import ("testing";"context")
func TestDbgCount(t *testing.T){
 for _, n := range []string{"ca_calgary_sample_dp_bp_house_26p","us_in_purdue_lily_hall_teaching_lab_reno_cd_14sh","us_va_stcloud_bldg28_renovation_cds"} {
  doc, err := Open(context.Background(), corpusDir+"/"+n+".pdf"); if err != nil {t.Fatal(err)}
  cnt := func() (int,int,int) { p, s, raw := 0, 0, 0; for _, e := range doc.obj.xref.entries { if x := e.parsed.Load(); x != nil { p++; if sd, ok := x.obj.(interface{}); ok { _ = sd } } }; return p, s, raw }
  a,_,_ := cnt()
  for p := range doc.PagesConcurrently(context.Background(), 2, nil) { _ = p }
  b,_,_ := cnt()
  t.Logf("%s: entries %d, parsed at open %d, after pages %d", n, len(doc.obj.xref.entries), a, b)
 }
}
