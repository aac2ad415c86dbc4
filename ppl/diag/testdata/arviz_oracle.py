# Pure-Python transcription of ArviZ 0.17 diagnostics (stats/diagnostics.py)
# to produce oracle values for ppl/diag tests on small fixed arrays.
from statistics import NormalDist
import math

def mean(x): return sum(x)/len(x)
def var(x, ddof=1):
    m = mean(x); return sum((v-m)**2 for v in x)/(len(x)-ddof)

def split(ch):
    out=[]
    for c in ch:
        h=len(c)//2
        out += [c[:h], c[len(c)-h:]]
    return out

def rankdata(flat):
    idx = sorted(range(len(flat)), key=lambda i: flat[i])
    r=[0]*len(flat); i=0
    while i < len(flat):
        j=i
        while j+1 < len(flat) and flat[idx[j+1]]==flat[idx[i]]: j+=1
        for k in range(i,j+1): r[idx[k]] = (i+j)/2+1
        i=j+1
    return r

def z_scale(ch):
    flat=[v for c in ch for v in c]; S=len(flat)
    r=rankdata(flat); nd=NormalDist()
    z=[nd.inv_cdf((ri-0.375)/(S+0.25)) for ri in r]
    n=len(ch[0]); return [z[i*n:(i+1)*n] for i in range(len(ch))]

def rhat_basic(ch):
    n=len(ch[0]); means=[mean(c) for c in ch]
    W=mean([var(c) for c in ch]); B=n*var(means)
    return math.sqrt(((n-1)/n*W + B/n)/W)

def quantile(x,q):
    s=sorted(x); h=q*(len(s)-1); lo=math.floor(h)
    if lo>=len(s)-1: return s[-1]
    return s[lo]+(h-lo)*(s[lo+1]-s[lo])

def rhat_rank(ch):
    sp=split(ch)
    bulk=rhat_basic(z_scale(sp))
    flat=[v for c in sp for v in c]; med=quantile(flat,0.5)
    folded=[[abs(v-med) for v in c] for c in sp]
    tail=rhat_basic(z_scale(folded))
    return max(bulk,tail)

def autocov(x):
    n=len(x); m=mean(x)
    return [sum((x[k]-m)*(x[k+t]-m) for k in range(n-t))/n for t in range(n)]

def ess(ch):
    m=len(ch); n=len(ch[0])
    acov=[autocov(c) for c in ch]
    cm=[mean(c) for c in ch]
    mean_var = mean([a[0] for a in acov])*n/(n-1)
    var_plus = mean_var*(n-1)/n
    if m>1: var_plus += var(cm)
    rho=[0.0]*n; rho[0]=1.0
    re=1.0; ro=1-(mean_var-mean([a[1] for a in acov]))/var_plus; rho[1]=ro
    t=1
    while t < n-3 and re+ro > 0:
        re=1-(mean_var-mean([a[t+1] for a in acov]))/var_plus
        ro=1-(mean_var-mean([a[t+2] for a in acov]))/var_plus
        if re+ro >= 0:
            rho[t+1]=re; rho[t+2]=ro
        t+=2
    max_t=t-2
    if re > 0: rho[max_t+1]=re
    t=1
    while t <= max_t-2:
        if rho[t+1]+rho[t+2] > rho[t-1]+rho[t]:
            rho[t+1]=(rho[t-1]+rho[t])/2; rho[t+2]=rho[t+1]
        t+=2
    N=m*n
    tau=-1+2*sum(rho[:max_t+1])+sum(rho[max_t+1:max_t+2])
    tau=max(tau,1/math.log10(N))
    return N/tau

def ess_bulk(ch): return ess(z_scale(split(ch)))
def ess_tail(ch):
    flat=[v for c in ch for v in c]
    out=[]
    for q in (0.05,0.95):
        qv=quantile(flat,q)
        out.append(ess(split([[1.0 if v<=qv else 0.0 for v in c] for c in ch])))
    return min(out)
def ess_mean(ch): return ess(split(ch))
def mcse_mean(ch):
    flat=[v for c in ch for v in c]
    return math.sqrt(var(flat))/math.sqrt(ess_mean(ch))
def mcse_sd(ch):
    flat=[v for c in ch for v in c]
    e=min(ess_mean(ch), ess_mean([[v*v for v in c] for c in ch]))
    return math.sqrt(var(flat))*math.sqrt(math.e*(1-1/e)**(e-1)-1)
def hdi(x,p):
    s=sorted(x); n=len(s); inc=math.floor(p*n); ni=n-inc
    w=[s[i+inc]-s[i] for i in range(ni)]; i=w.index(min(w)); return s[i],s[i+inc]
def bfmi(e):
    d=[(e[i]-e[i-1])**2 for i in range(1,len(e))]
    return mean(d)/var(e,0)

A=[[0.1,-0.3,1.2,0.8,-1.1,0.4,0.9,-0.2,0.0,1.5,-0.7,0.3],
   [0.6,1.1,-0.4,0.2,0.7,-0.9,1.3,0.5,-0.1,0.8,0.2,-0.5],
   [1.0,0.4,0.9,1.8,0.3,1.2,0.6,1.5,0.7,2.1,0.9,1.1]]
# AR-ish sticky chain pair (strong autocorrelation)
B=[[0.0,0.2,0.5,0.7,0.6,0.9,1.1,1.0,1.3,1.2,1.5,1.4,1.6,1.3,1.1,0.8],
   [2.0,1.8,1.9,1.6,1.7,1.4,1.5,1.2,1.0,1.1,0.9,0.7,0.8,0.5,0.6,0.4]]
for name,ch in (("A",A),("B",B)):
    flat=[v for c in ch for v in c]
    print(name, "rhat_basic", repr(rhat_basic(ch)), "rhat", repr(rhat_rank(ch)))
    print(name, "ess_bulk", repr(ess_bulk(ch)), "ess_tail", repr(ess_tail(ch)), "ess_mean", repr(ess_mean(ch)))
    print(name, "mcse_mean", repr(mcse_mean(ch)), "mcse_sd", repr(mcse_sd(ch)))
    print(name, "hdi94", hdi(flat,0.94), "q05", repr(quantile(flat,0.05)), "q95", repr(quantile(flat,0.95)))
print("bfmi", repr(bfmi(A[0])))
