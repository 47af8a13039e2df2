// Whether each named image's own pixels paint anything a person can see,
// read from the image itself where the page lets a canvas read it (same
// origin, CORS, data:). Answers, per image, "hidden" when every pixel is
// clear, "shown" when it holds two colours a person tells apart (one of
// them stands out from whatever lies behind it), "broken" when it failed
// to load (the browser draws its alt text instead), "unsure" otherwise (an
// image from another origin, one not loaded or broken, one of a single
// colour, which may be the colour behind it): the screenshot says. Runs
// in axfuse's isolated world: it reads, it never changes the page.
function imagesShown(...imgs) {
  const N = 32; // samples a side: a hairline still leaves some alpha
  let pen = null;
  const linear = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  const lum = (p) => 0.2126 * linear(p[0]) + 0.7152 * linear(p[1]) + 0.0722 * linear(p[2]);
  const contrast = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const judge = (img) => {
    if (!(img instanceof HTMLImageElement) || !img.complete) return 'unsure';
    // Broken: the browser draws its alt text (or an icon) in the
    // element's own colour, which the model judges.
    if (!img.naturalWidth || !img.naturalHeight) return img.currentSrc || img.src ? 'broken' : 'unsure';
    pen = pen || new OffscreenCanvas(N, N).getContext('2d', { willReadFrequently: true });
    pen.clearRect(0, 0, N, N);
    pen.drawImage(img, 0, 0, N, N);
    const d = pen.getImageData(0, 0, N, N).data; // throws for a tainted canvas
    let maxAlpha = 0;
    const opaque = [];
    for (let i = 0; i < d.length; i += 4) {
      maxAlpha = Math.max(maxAlpha, d[i + 3]);
      if (d[i + 3] >= 128 && opaque.length < 256) opaque.push([d[i], d[i + 1], d[i + 2]]);
    }
    if (maxAlpha < 13) return 'hidden'; // under 5%: nothing is drawn
    for (let a = 0; a < opaque.length; a += 7) {
      for (let b = a + 1; b < opaque.length; b += 3) {
        if (contrast(opaque[a], opaque[b]) >= 1.2) return 'shown';
      }
    }
    return 'unsure';
  };
  return imgs.map((img) => { try { return judge(img); } catch (e) { return 'unsure'; } });
}
