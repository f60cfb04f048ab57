# luajit.sh - LuaJIT for tests/real/run.sh; sourced, not run.
#
# Make-based, with a Makefile of several compilers: HOST_CC (minilua and
# buildvm, which generate lj_vm.S and the lj_*def.h headers during the
# build), STATIC_CC and DYNAMIC_CC (the VM's objects), TARGET_LD; all of
# them default to $(CC), so `make CC="likelyprof cc"` passes the target
# objects, the generated assembler lj_vm.S and the host tools (which run
# during the build, outside `likelyprof run`) through likelyprof.
# BUILDMODE=static (a knob of its Makefile) compiles each object once,
# not a second time with -fPIC for libluajit.so, which the workload does
# not use; the Makefile strips the binary, as released.  Its tarball has
# no top folder.  Hints: LJ_LIKELY()/LJ_UNLIKELY() of src/lj_def.h, some
# in the bodies of macros (lj_gc.h's lj_gc_check()) and one in lj_asm.c's
# MINCOST(), which is passed by name to the X-macros of the registers,
# `GPRDEF(MINCOST)`: gcc reports its sites at that line.  The workload:
# Lua scripts of its own (strings and patterns, tables and metatables,
# closures, coroutines and errors, numeric loops that the JIT compiles,
# the FFI, string.buffer serialisation, generated code through load(),
# bytecode saved with -b and loaded again), each with the JIT on and
# off; their outputs are compared.

pkg=luajit
annot_dirs="src"

build() {
	make -j"$JOBS" BUILDMODE=static ${LP_REAL_CC:+"CC=$LP_REAL_CC"}
}

# The scripts print nothing that depends on addresses, time or the order
# of pairs() (LuaJIT seeds its string hashes at random).

script_strings() {
	cat << 'EOF'
local t = {}
for i = 1, 3000 do
  t[#t + 1] = string.format("%05d:%s:%x:%.3f", i, ("ab"):rep(i % 7),
    i * 2654435761 % 4294967296, i / 7)
end
local s = table.concat(t, "\n")
print(#s, s:sub(1, 60), s:sub(-60))
local n, words = 0, {}
for w in s:gmatch("%a+") do n = n + 1; words[#words + 1] = w end
print("words", n, words[1], words[#words])
local r, k = s:gsub("(%d+):(%a*)", function(d, a) return a .. d end)
print("gsub", k, #r, r:sub(1, 50))
print(("hello world from lua"):gsub("o", "0", 2))
print(("  trim me  "):match("^%s*(.-)%s*$") .. "|")
print(string.find("the quick brown fox", "qu(%a+)"))
print(string.find("a.b.c", ".", 1, true), string.find("abc", "[%]]"))
local up = {}
for i = 1, 200 do up[i] = string.char(65 + i % 26):lower():upper() end
print(table.concat(up))
local sum = 0
for i = 1, #s, 97 do sum = (sum * 31 + s:byte(i)) % 1000003 end
print("bytes", sum)
print(string.format("%q", "line\nwith \"quotes\"\0and zero"))
print(string.format("%-8s|%8s|%08.3f|%+d|%e|%g|%g", "ab", "cd", math.pi,
  42, 12345.678, 1e20, 0.1))
print(tostring(1/0), tostring(-1/0), tostring(0/0) ~= nil, 2^53, -0.0)
print(tonumber("0x1p4"), tonumber("  12  "), tonumber("1e2"),
  tonumber("z", 36), tonumber("777", 8), tonumber("abc"))
local rev = {}
for i = 1, 500 do rev[i] = tostring(i):reverse() end
print(table.concat(rev, ","):sub(1, 80))
-- string interning: many equal strings built in different ways
local same = 0
for i = 1, 20000 do
  if ("k" .. (i % 100)) == string.format("k%d", i % 100) then
    same = same + 1
  end
end
print("interned", same)
EOF
}

script_tables() {
	cat << 'EOF'
local function keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = tostring(k) end
  table.sort(ks)
  return table.concat(ks, " ")
end
local a = {}
for i = 1, 20000 do a[i] = (i * 7919) % 10007 end
table.sort(a)
print(a[1], a[100], a[#a], #a)
table.sort(a, function(x, y) return x > y end)
print(a[1], a[100], a[#a])
for i = 1, 5000 do table.remove(a) end
for i = 1, 100 do table.insert(a, 1, i) end
print(#a, a[1], a[100], a[101])
local h = {}
for i = 1, 30000 do h["key" .. i] = i; h[i + 0.5] = -i end
local n, s = 0, 0
for k, v in pairs(h) do n = n + 1; s = s + v end
print("hash", n, s)
for i = 1, 30000, 2 do h["key" .. i] = nil end
n = 0
for k in pairs(h) do n = n + 1 end
print("after delete", n)
print(keys({x = 1, y = 2, [3] = 3, [true] = 4}))
local V = {}
V.__index = V
V.__add = function(p, q) return setmetatable({p[1] + q[1], p[2] + q[2]}, V) end
V.__eq = function(p, q) return p[1] == q[1] and p[2] == q[2] end
V.__lt = function(p, q) return p[1] < q[1] end
V.__le = function(p, q) return p[1] <= q[1] end
V.__tostring = function(p) return "(" .. p[1] .. "," .. p[2] .. ")" end
V.__concat = function(p, q) return tostring(p) .. tostring(q) end
V.__call = function(p, x) return p[1] * x + p[2] end
V.__len = function(p) return 2 end
V.__unm = function(p) return setmetatable({-p[1], -p[2]}, V) end
local acc = setmetatable({0, 0}, V)
for i = 1, 10000 do acc = acc + setmetatable({i, 1}, V) end
print(tostring(acc), acc == setmetatable({50005000, 10000}, V),
  acc < setmetatable({1, 1}, V), #acc, acc(2), tostring(-acc),
  setmetatable({1, 2}, V) .. setmetatable({3, 4}, V))
local log = {}
local proxy = setmetatable({}, {
  __index = function(t, k) log[#log + 1] = "get " .. k; return k * 2 end,
  __newindex = function(t, k, v)
    log[#log + 1] = "set " .. k
    rawset(t, k, v)
  end,
})
local x = proxy[21] + proxy[4]
proxy[1] = x
print(x, proxy[1], table.concat(log, ","))
local weak = setmetatable({}, {__mode = "k"})
for i = 1, 1000 do weak[{}] = i end
collectgarbage(); collectgarbage()
n = 0
for k in pairs(weak) do n = n + 1 end
print("weak left", n)
local big = {}
for i = 1, 200 do big[i] = {} for j = 1, 200 do big[i][j] = i * j end end
local tot = 0
for i = 1, 200 do for j = 1, 200 do tot = tot + big[j][i] end end
print("matrix", tot, select("#", unpack(big[5])),
  table.concat(big[3], ",", 1, 5))
print(next({}), rawequal(a, a), rawlen and rawlen({1, 2}) or 2, #"abc")
EOF
}

script_closures() {
	cat << 'EOF'
local function counter()
  local n = 0
  return function(k) n = n + (k or 1); return n end
end
local cs = {}
for i = 1, 100 do cs[i] = counter() end
local total = 0
for r = 1, 200 do for i = 1, 100 do total = total + cs[i](i % 3) end end
print("closures", total)
local function gen(n)
  return coroutine.wrap(function()
    for i = 1, n do coroutine.yield(i, i * i) end
    return nil
  end)
end
local s = 0
for a, b in gen(5000) do s = s + a + b end
print("coroutine sum", s)
local function producer()
  return coroutine.create(function()
    for i = 1, 1000 do coroutine.yield(string.rep("x", i % 10)) end
    return "done"
  end)
end
local co, len = producer(), 0
while true do
  local ok, v = coroutine.resume(co)
  if coroutine.status(co) == "dead" then print("last", ok, v) break end
  len = len + #v
end
print("produced", len, coroutine.resume(co))
-- errors, pcall and xpcall, errors across coroutines
local errs = {}
for i = 1, 300 do
  local ok, e = pcall(function()
    if i % 3 == 0 then error({code = i}) end
    if i % 3 == 1 then error("bad " .. i, 0) end
    return i
  end)
  errs[#errs + 1] = ok and "ok" or (type(e) == "table" and e.code or e)
end
print(errs[1], errs[2], errs[3], errs[300], #errs)
print(xpcall(function() local t = nil; return t.x end,
  function(m) return "handled: " .. tostring(m):gsub("^.-:%d+: ", "") end))
print(pcall(error))
local co2 = coroutine.create(function(a)
  local b = coroutine.yield(a + 1)
  error("inside " .. b, 0)
end)
print(coroutine.resume(co2, 1))
print(coroutine.resume(co2, "co"))
print(coroutine.resume(co2))
-- yield across pcall (LuaJIT allows it)
local co3 = coroutine.wrap(function()
  local ok, v = pcall(function() return coroutine.yield("y") .. "!" end)
  return tostring(ok) .. v
end)
print(co3(), co3("z"))
-- recursion, varargs, tail calls
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end
print("fib", fib(25))
local function count(n, acc)
  if n == 0 then return acc end
  return count(n - 1, acc + 1)
end
print("tail", count(200000, 0))
local function va(...) return select("#", ...), ... end
print(va(1, nil, 3, nil))
print(string.format("%s %s", select(2, va("a", "b"))))
local memo = setmetatable({}, {__mode = "v"})
local function intern(s)
  local v = memo[s]
  if not v then v = {s} memo[s] = v end
  return v
end
print(intern("a") == intern("a"), intern("b")[1])
EOF
}

script_numeric() {
	cat << 'EOF'
-- loops the JIT compiles (run with -jon and -joff, the same output)
local function sieve(n)
  local comp, count = {}, 0
  for i = 2, n do
    if not comp[i] then
      count = count + 1
      for j = i * i, n, i do comp[j] = true end
    end
  end
  return count
end
print("primes", sieve(300000))
local function mandel(w)
  local h, iter, inside = w, 50, 0
  for y = 0, h - 1 do
    local ci = 2 * y / h - 1
    for x = 0, w - 1 do
      local cr, zr, zi = 2.5 * x / w - 2, 0, 0
      local escaped = false
      for i = 1, iter do
        local zr2, zi2 = zr * zr, zi * zi
        if zr2 + zi2 > 4 then escaped = true break end
        zi = 2 * zr * zi + ci
        zr = zr2 - zi2 + cr
      end
      if not escaped then inside = inside + 1 end
    end
  end
  return inside
end
print("mandel", mandel(160))
local function nbody(steps)
  local b = {
    {x = 0, y = 0, z = 0, vx = 0, vy = 0, vz = 0, m = 39.47},
    {x = 4.84, y = -1.16, z = -0.10, vx = 0.606, vy = 2.81, vz = -0.02,
     m = 0.037},
    {x = 8.34, y = 4.12, z = -0.40, vx = -1.01, vy = 1.82, vz = 0.008,
     m = 0.011},
    {x = 12.89, y = -15.11, z = -0.22, vx = 1.08, vy = 0.868, vz = -0.01,
     m = 0.0017},
  }
  local dt = 0.01
  for s = 1, steps do
    for i = 1, #b do
      local bi = b[i]
      for j = i + 1, #b do
        local bj = b[j]
        local dx, dy, dz = bi.x - bj.x, bi.y - bj.y, bi.z - bj.z
        local d2 = dx * dx + dy * dy + dz * dz
        local mag = dt / (d2 * math.sqrt(d2))
        bi.vx = bi.vx - dx * bj.m * mag; bj.vx = bj.vx + dx * bi.m * mag
        bi.vy = bi.vy - dy * bj.m * mag; bj.vy = bj.vy + dy * bi.m * mag
        bi.vz = bi.vz - dz * bj.m * mag; bj.vz = bj.vz + dz * bi.m * mag
      end
    end
    for i = 1, #b do
      local bi = b[i]
      bi.x = bi.x + dt * bi.vx
      bi.y = bi.y + dt * bi.vy
      bi.z = bi.z + dt * bi.vz
    end
  end
  return string.format("%.9f %.9f", b[2].x, b[3].y)
end
print("nbody", nbody(20000))
local bit = require("bit")
local h = 0
for i = 1, 200000 do
  h = bit.bxor(bit.rol(h, 5), i)
  h = bit.band(h + bit.lshift(i, 3), 0x7fffffff)
  h = bit.bor(h, bit.rshift(i, 7)) - bit.arshift(-i, 20)
end
print("bits", h, bit.tohex(h), bit.bnot(0), bit.bswap(0x12345678))
local fs = 0
for i = 1, 100000 do
  fs = fs + math.floor(i / 3) + math.fmod(i, 7) + math.abs(-i) % 5
  fs = fs + math.max(i % 11, i % 13) - math.min(i % 17, 3)
end
print("math", fs, math.huge, math.floor(-3.5), math.ceil(-3.5),
  string.format("%.12f %.12f %.12f", math.sin(1), math.exp(1), math.log(10)))
local acc = 0
for i = 1, 300000 do
  local v = i % 3 == 0 and i * 0.5 or i
  acc = acc + v
end
print("mixed", acc)
local str = {}
for i = 1, 50000 do str[#str + 1] = i % 10 end
print("concat", #table.concat(str))
EOF
}

script_ffi() {
	cat << 'EOF'
local ffi = require("ffi")
ffi.cdef[[
typedef struct { double x, y; int tag; } point;
size_t strlen(const char *);
int snprintf(char *, size_t, const char *, ...);
]]
local n = 100000
local arr = ffi.new("double[?]", n)
for i = 0, n - 1 do arr[i] = i * 0.5 end
local s = 0
for i = 0, n - 1 do s = s + arr[i] end
print("ffi sum", s)
local pts = ffi.new("point[?]", 1000)
for i = 0, 999 do pts[i].x = i; pts[i].y = -i; pts[i].tag = i % 7 end
local tags = 0
for i = 0, 999 do tags = tags + pts[i].tag + pts[i].x + pts[i].y end
print("points", tags, ffi.sizeof("point"), ffi.offsetof("point", "tag"))
local i64 = ffi.new("int64_t", 1)
for i = 1, 62 do i64 = i64 * 2 end
print("int64", tostring(i64), tostring(i64 - 1 + i64),
  tostring(ffi.cast("uint64_t", -1)))
local u = 0ULL
for i = 1, 100000 do u = u + i * 3ULL end
print("uint64", tostring(u), tostring(u % 1000ULL), tostring(-5LL / 2LL))
print("strlen", tonumber(ffi.C.strlen("hello, ffi")))
local buf = ffi.new("char[64]")
ffi.C.snprintf(buf, 64, "%d-%s-%.2f", ffi.new("int", 42), "x", 3.14159)
print("snprintf", ffi.string(buf))
local cb = ffi.cast("int (*)(int, int)", function(a, b) return a * 10 + b end)
print("callback", cb(4, 2))
cb:free()
print(ffi.istype("point", pts[0]), ffi.typeof(pts[0]) == ffi.typeof("point"),
  tonumber(ffi.cast("int", 3.9)), ffi.abi("le"), ffi.abi("64bit"))
EOF
}

script_buffer() {
	cat << 'EOF'
local buffer = require("string.buffer")
local data = {}
for i = 1, 2000 do
  data[i] = {id = i, name = "item" .. i, score = i / 8,
    tags = {i % 2 == 0, "t" .. i % 5}}
end
local enc = buffer.encode(data)
local back = buffer.decode(enc)
local ok = #back == #data
for i = 1, #data do
  local a, b = data[i], back[i]
  ok = ok and a.id == b.id and a.name == b.name and a.score == b.score
    and a.tags[1] == b.tags[1] and a.tags[2] == b.tags[2]
end
print("roundtrip", ok, #back, back[77].name, back[2000].score)
local b = buffer.new()
for i = 1, 10000 do b:put(i, ",") end
print("buffer", #b, b:get(10), #b)
b:reset()
b:putf("%s=%d;", "a", 1):putf("%5.2f", 2.5)
print(b:tostring())
local dict = buffer.new({dict = {"id", "name", "score", "tags"}})
local e2 = dict:encode(data[5]):get()
local keys = {"id", "name", "score", "tags"}
print("dict", #e2 < #buffer.encode(data[5]),
  buffer.new({dict = keys}):set(e2):decode().name)
print(pcall(buffer.decode, "\255garbage"))
EOF
}

script_load() {
	cat << 'EOF'
-- generated code through the lexer and parser
local parts = {"local t = {}"}
for i = 1, 3000 do
  parts[#parts + 1] = string.format(
    "t[%d] = function(a, b) local c = a * %d + b; " ..
    "if c > %d then return c - %d else return c end end",
    i, i, i * 10, i)
end
parts[#parts + 1] = "return t"
local f = assert(load(table.concat(parts, "\n"), "=generated"))
local t = f()
local s = 0
for i = 1, 3000 do s = s + t[i](i, 7) end
print("generated", #t, s)
local bad = {"x = ", "for i=1 do end", "local function() end", "return 1 +",
  "x = 'unfinished",
  "goto nowhere", "a.b:c = 1", "--[[ never closed"}
for _, src in ipairs(bad) do print(load(src, "=bad")) end
print(loadstring("return 2^10")(), type(load(function() return nil end)))
local env = {x = 5}
local g = load("y = x * 2; return y", "=env", "t", env)
print(g(), env.y, rawget(_G, "y"))
print(string.dump ~= nil, #string.dump(function(a) return a + 1 end) > 0)
local dumped = load(string.dump(function(a, b) return a .. "/" .. b end))
print(dumped("p", "q"))
EOF
}

# run_lua NAME: the script NAME (its text from script_NAME), with the JIT
# on and off, from the log folder so that chunk names are the same in
# every run.
run_lua() {
	script_"$1" > "$log/$1.lua" || return 1
	(cd "$log" && "$LJ" "$1.lua") > "$out/$1.jon" 2> "$log/$1.err" &&
	(cd "$log" && "$LJ" -joff "$1.lua") > "$out/$1.joff" \
		2>> "$log/$1.err" &&
	cmp "$out/$1.jon" "$out/$1.joff"
}

workload() {
	out=$1
	log=$2
	LJ=$PWD/src/luajit
	# jit.* modules (-jv, -b) from the tree
	LUA_PATH="$PWD/src/?.lua;;"
	export LUA_PATH
	"$LJ" -v > "$out/version" || return 1
	for s in strings tables closures numeric ffi buffer load; do
		run_lua "$s" || return 1
	done
	# the JIT's traces, to the log: which ones it makes is not compared
	(cd "$log" && "$LJ" -jv=traces.txt numeric.lua) > "$log/jv.out" ||
		return 1
	# bytecode saved (lj_bcwrite) and loaded again (lj_bcread)
	for s in closures tables; do
		(cd "$log" && "$LJ" -b -g "$s.lua" "$s.bc" &&
		 "$LJ" -bl "$s.lua" > "$s.list" &&
		 "$LJ" "$s.bc") > "$out/$s.bc.out" || return 1
		cmp "$out/$s.bc.out" "$out/$s.jon" || return 1
	done
}
