#!/usr/bin/env python3
# Usage: python3 .ci/complete-lockfile.py package-lock.json (after adding or updating a package with native builds).
# Adds lock entries for optional platform packages this machine's registry does not serve (biome's, oxc-parser's and
# unrs-resolver's (jest's) builds for other systems): without them `npm ci` refuses the lock ("Missing: … from lock file"). They are optional and
# for other platforms, so npm never fetches them here.
import json,re,sys
p=sys.argv[1]
l=json.load(open(p))
pk=l['packages']
def platform(name):
    n=re.sub(r'^(cli|binding|resolver-binding)-','',name.split('/')[-1])
    parts=n.split('-')
    os_=parts[0]; cpu=parts[1] if len(parts)>1 else None
    rest='-'.join(parts[2:])
    libc='musl' if 'musl' in rest else ('glibc' if 'gnu' in rest or os_=='linux' else None)
    return os_,cpu,libc
def resolves(key,dep):
    # where npm would find dep for the package at key
    scope=key
    while True:
        cand=(scope+'/node_modules/'+dep) if scope else ('node_modules/'+dep)
        if cand in pk: return cand
        if not scope: return None
        i=scope.rfind('/node_modules/')
        scope = scope[:i] if i>=0 else ''
added=[]
for key,entry in list(pk.items()):
    for dep,ver in (entry.get('optionalDependencies') or {}).items():
        if not dep.startswith(('@biomejs/cli-', '@oxc-parser/binding-', '@unrs/resolver-binding-')): continue
        found=resolves(key,dep)
        if found and pk[found].get('version')==ver: continue
        # place next to the package's own directory scope (its parent node_modules)
        i=key.rfind('/node_modules/')
        parent=key[:i] if i>=0 else ''
        target=(parent+'/node_modules/'+dep) if parent else ('node_modules/'+dep)
        if target in pk: target=key+'/node_modules/'+dep
        os_,cpu,libc=platform(dep)
        e={"version":ver,"cpu":[cpu],"dev":True,"license":"MIT","optional":True,"os":[os_]}
        if libc and os_=='linux': e["libc"]=[libc]
        pk[target]=e; added.append(target)
l['packages']=dict(sorted(pk.items(), key=lambda kv: (kv[0]!='', kv[0])))
json.dump(l,open(p,'w'),indent=2); open(p,'a').write('\n')
print('\n'.join(added))
