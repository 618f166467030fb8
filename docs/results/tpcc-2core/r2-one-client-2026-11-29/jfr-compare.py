import re,sys,collections
def load(fn, thread='tpcc-client'):
    txt=open(fn).read()
    selfc=collections.Counter(); incl=collections.Counter(); tot=0
    for e in txt.split('jdk.ExecutionSample')[1:]:
        if thread not in e: continue
        frames=re.findall(r'^\s+([\w.$<>]+)\(',e,re.M)
        if not frames: continue
        tot+=1
        selfc[frames[0]]+=1
        seen=set()
        for f in frames:
            k=f.rsplit('.',1)[0]
            if k not in seen: incl[k]+=1; seen.add(k)
    return tot,selfc,incl
a=load(sys.argv[1]); b=load(sys.argv[2]); ta=float(sys.argv[3]); tb=float(sys.argv[4])
print('samples per 1000 tx: A %.1f  B %.1f  ratio %.2f'%(a[0]/ta*1000,b[0]/tb*1000,(b[0]/tb)/(a[0]/ta)))
keys=set(a[1])|set(b[1])
rows=sorted(keys,key=lambda k:-(b[1][k]/tb-a[1][k]/ta))
print('-- self frames, samples per 1000 tx, largest increase first')
for k in rows[:30]: print('%7.2f %7.2f %+7.2f %s'%(a[1][k]/ta*1000,b[1][k]/tb*1000,(b[1][k]/tb-a[1][k]/ta)*1000,k))
print('-- inclusive classes, largest increase')
keys=set(a[2])|set(b[2])
rows=sorted(keys,key=lambda k:-(b[2][k]/tb-a[2][k]/ta))
for k in rows[:25]: print('%7.2f %7.2f %+7.2f %s'%(a[2][k]/ta*1000,b[2][k]/tb*1000,(b[2][k]/tb-a[2][k]/ta)*1000,k))
