"""Random protocol traffic against the engine: mutated FENs, random moves, go parameters, options,
every game, at a steady pace. Exits 0 only if the engine survives, answers `isready` at the end,
and exits cleanly on `quit` with nothing on stderr.

usage: fuzz_protocol.py ENGINE SEED SECONDS [LINES_PER_PAUSE]
"""
import random, subprocess, sys, time
random.seed(int(sys.argv[2]) if len(sys.argv)>2 else 1)
eng=sys.argv[1]
fens={'chess':['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1','r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1','8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1','bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'],
'xiangqi':['rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1','3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1'],
'chinesecheckers':['D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A 0','D/DD/DDD/DDDD/CCCC5EEEE/CCC6EEE/CC7EE/C8E/9/B8F/BB7FF/BBB6FFF/BBBB5FFFF/AAAA/AAA/AA/A ABCDEF A 0']}
def mutate(s):
    s=list(s)
    for _ in range(random.randint(0,4)):
        op=random.random(); i=random.randrange(len(s)+1)
        if op<0.3 and s: del s[min(i,len(s)-1)]
        elif op<0.6: s.insert(i,random.choice('pnbrqkPNBRQKacehAEH0123456789/ -wbxXQqKk'))
        elif s: s[min(i,len(s)-1)]=random.choice('0123456789/pP -')
    return ''.join(s)
tokens=['e2e4','e7e5','h2e2','h9g7','k3k5','0000','a1a1','z9z9','e1g1','e1h1','e7e8q','i5i6','m1m5','a0a9','b0c2']
gokeys=['wtime','btime','winc','binc','movestogo','depth','nodes','mate','movetime','time','inc','increment','opptime','infinite','ponder','searchmoves','perft','draw']
def line():
    r=random.random()
    if r<0.2:
        v=random.choice(list(fens)); 
        return random.choice([f'setoption name UCI_Variant value {v}','setoption name CC Players value '+random.choice('23456'),'setoption name UCI_Chess960 value '+random.choice(['true','false']),'setoption name Xiangqi Ranks value '+random.choice(['0-9','1-10']),'setoption name CC Goal Lock value true','setoption name Hash value '+str(random.randint(-5,300)),'setoption name Threads value '+str(random.randint(0,3)),'setoption name MultiPV value '+str(random.randint(0,5))])
    if r<0.5:
        f=random.choice(sum(fens.values(),[]))
        if random.random()<0.5: f=mutate(f)
        mv=' '.join(random.choice(tokens) for _ in range(random.randint(0,4)))
        return random.choice([f'position fen {f}', f'position fen {f} moves {mv}', f'position startpos moves {mv}','position startpos'])
    if r<0.75:
        ps=[]
        for _ in range(random.randint(0,4)):
            k=random.choice(gokeys); ps.append(k)
            if k not in('infinite','ponder','draw'): ps.append(random.choice(['0','1','5','-3','100','99999999999999999999','x','e2e4',str(random.randint(0,50))]))
        if 'infinite' in ps or 'ponder' in ps: ps=[p for p in ps if p not in ('infinite','ponder')]
        if 'perft' in ps:
            return 'go perft '+str(random.randint(0,3))
        if not any(k in ps for k in ('depth','nodes','movetime','wtime','btime','time')): ps+=['depth',str(random.randint(1,4))]
        return 'go '+' '.join(ps)
    return random.choice(['isready','stop','ponderhit','d','eval','moves','moves k3','banmoves h2e2','ucinewgame','uci','spsa','bench 1','debug on','flibber','setoption name','position','go','\x00\x01','moves zz'])
p=subprocess.Popen([eng],stdin=subprocess.PIPE,stdout=subprocess.PIPE,stderr=subprocess.PIPE)
import threading
out=[]
threading.Thread(target=lambda: [out.append(l) for l in p.stdout], daemon=True).start()
t=time.time(); n=0; n_isready=0
try:
    while time.time()-t<float(sys.argv[3]) if len(sys.argv)>3 else 30:
        l=line(); n_isready += l=='isready'
        p.stdin.write((l+'\n').encode('utf-8','surrogateescape')); n+=1
        if n%int(sys.argv[4] if len(sys.argv)>4 else 50)==0: p.stdin.flush(); time.sleep(0.01)
        if p.poll() is not None: break
    # Every `isready` gets its own `readyok`: count them before and after one more.
    time.sleep(0.2)
    ready = lambda: sum(1 for l in list(out) if l.strip()==b'readyok')
    sent = n_isready
    p.stdin.write(b'stop\nisready\n'); p.stdin.flush()
    t1=time.time()
    while time.time()-t1<60 and ready() < sent + 1:
        time.sleep(0.05)
    assert ready() == sent + 1, f'{sent + 1} isready sent, {ready()} readyok received'
    p.stdin.write(b'quit\n'); p.stdin.flush(); p.stdin.close()
except BrokenPipeError: pass
rc=p.wait(timeout=60)
err=p.stderr.read().decode(errors='replace')
print('lines',n,'rc',rc, err[-2000:])
sys.exit(0 if rc==0 and not err.strip() else 1)
