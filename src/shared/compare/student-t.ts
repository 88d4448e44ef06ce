/**
 * Student's t distribution, for intervals from few repetitions: the quantile a confidence level
 * needs, for any positive (also fractional, Welch) degrees of freedom. Pure arithmetic, no tables.
 */

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9: about 15 correct digits). */
export function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7
  ]
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x)
  const z = x - 1
  let sum = c[0]!
  for (let i = 1; i < 9; i++) sum += c[i]! / (z + i)
  const t = z + 7.5
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum)
}

/** The continued fraction of the incomplete beta function (modified Lentz), for x < (a + 1) / (a + b + 2). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300
  let c = 1
  let d = 1 - ((a + b) * x) / (a + 1)
  if (Math.abs(d) < tiny) d = tiny
  d = 1 / d
  let h = d
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2))
    d = 1 + aa * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + aa / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    h *= d * c
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))
    d = 1 + aa * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + aa / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const step = d * c
    h *= step
    if (Math.abs(step - 1) < 1e-15) break
  }
  return h
}

/** The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x))
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b
}

/** P(T <= t) for Student's t with `df` degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5)
  return t >= 0 ? 1 - tail : tail
}

/**
 * The t with P(T <= t) = p (0.5 < p < 1), by bisection on the distribution function: 2.776 for
 * p = 0.975 and 4 degrees of freedom, 12.706 for 1.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0.5 && p < 1) || !(df > 0)) throw new Error(`no t quantile for p=${p}, df=${df}`)
  // a comparison asks for the same few quantiles in every cell (p = 0.975, df = n - 1): a bisection of ~40 incomplete betas each
  const key = `${p}|${df}`
  let t = quantiles.get(key)
  if (t === undefined) {
    if (quantiles.size >= 1000) quantiles.clear()
    quantiles.set(key, (t = bisectQuantile(p, df)))
  }
  return t
}

const quantiles = new Map<string, number>()

function bisectQuantile(p: number, df: number): number {
  let low = 0
  let high = 1
  while (studentTCdf(high, df) < p) high *= 2
  for (let i = 0; i < 200 && high - low > 1e-12 * high; i++) {
    const mid = (low + high) / 2
    if (studentTCdf(mid, df) < p) low = mid
    else high = mid
  }
  return (low + high) / 2
}
